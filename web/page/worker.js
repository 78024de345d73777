// The solver's worker: it owns the WebAssembly module, so that a long solve never blocks the
// page. Messages in: {type: 'init', wasm: ArrayBuffer}, {type: 'load', text},
// {type: 'solve', index, settings}. Out: 'ready', 'loaded', 'progress', 'answer', 'failed'.
// Stop is the page's: it ends this worker and starts another.
'use strict';
let exports = null;
const decoder = new TextDecoder();
const encoder = new TextEncoder();

function output() {
  const at = exports.tsumugi_output();
  const len = exports.tsumugi_output_len();
  return decoder.decode(new Uint8Array(exports.memory.buffer, at, len));
}

// Copies `text` into a buffer of the module's; returns [pointer, length, capacity].
function put(text) {
  const bytes = encoder.encode(text);
  const cap = Math.max(bytes.length, 1);
  const at = exports.tsumugi_alloc(cap);
  new Uint8Array(exports.memory.buffer, at, bytes.length).set(bytes);
  return [at, bytes.length, cap];
}

async function init(wasm) {
  const module = await WebAssembly.compile(wasm);
  const imports = {
    tsumugi: {
      now_ms: () => performance.now(),
      progress: (nodes, at, len) => {
        const line = decoder.decode(new Uint8Array(exports.memory.buffer, at, len));
        postMessage({ type: 'progress', nodes, line });
      },
    },
  };
  // A dependency's browser glue (a progress bar's clock) is linked in but never called on
  // the page's paths: any such import fails loudly if it ever is.
  for (const i of WebAssembly.Module.imports(module)) {
    if (i.module === 'tsumugi') continue;
    imports[i.module] = imports[i.module] || {};
    imports[i.module][i.name] = () => { throw new Error(`${i.module}.${i.name} is not available in the page`); };
  }
  const instance = await WebAssembly.instantiate(module, imports);
  exports = instance.exports;
}

onmessage = async (event) => {
  const m = event.data;
  try {
    if (m.type === 'init') {
      await init(m.wasm);
      postMessage({ type: 'ready' });
    } else if (m.type === 'load') {
      exports.tsumugi_load(...put(m.text));
      postMessage({ type: 'loaded', loaded: JSON.parse(output()) });
    } else if (m.type === 'solve') {
      const started = performance.now();
      exports.tsumugi_solve(m.index, ...put(JSON.stringify(m.settings)));
      const reply = JSON.parse(output());
      const ms = performance.now() - started;
      if (reply.answer) postMessage({ type: 'answer', index: m.index, answer: reply.answer, ms });
      else postMessage({ type: 'failed', index: m.index, error: reply.error });
    }
  } catch (e) {
    // A trap (the solver's panic, memory the browser refused): the page starts a new worker.
    postMessage({ type: 'failed', index: m.index, error: String(e && e.message || e), crashed: true });
  }
};
