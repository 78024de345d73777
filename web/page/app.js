// The workbench page: problems pasted or opened, solved one after another in a worker, each
// answer with its report. Batch mode for scripts: index.html?file=P&nodes=N&rules=R solves
// the file's problems and writes `<id> <usi moves>` lines into <pre id="answers">, then sets
// the title to `done`.
'use strict';
const $ = (id) => document.getElementById(id);
const wasmBytes = Uint8Array.from(atob($('wasm-b64').textContent.trim()), (c) => c.charCodeAt(0));
const workerUrl = URL.createObjectURL(new Blob([$('worker-src').textContent], { type: 'text/javascript' }));

let worker = null;
let ready = null; // resolves once the worker has the module
let pending = null; // the reply the page waits for: {resolve, type}
let onProgress = () => {};

// A fresh worker with the module in it; resolves once it is ready.
function startWorker() {
  if (worker) worker.terminate();
  worker = new Worker(workerUrl);
  worker.onmessage = (e) => {
    const m = e.data;
    if (m.type === 'progress') return onProgress(m);
    if (pending) { const p = pending; pending = null; p.resolve(m); }
  };
  worker.onerror = (e) => {
    if (pending) { const p = pending; pending = null; p.resolve({ type: 'failed', error: e.message || 'the worker failed', crashed: true }); }
  };
  return ask({ type: 'init', wasm: wasmBytes.buffer.slice(0) });
}

function ask(message) {
  return new Promise((resolve) => { pending = { resolve }; worker.postMessage(message); });
}

// Stop: the solve in the worker cannot be interrupted from outside, so the worker goes and
// a new one takes its place (the problems are loaded into it again).
let loadedText = '';
let stopped = false;
function stop() {
  stopped = true;
  if (pending) { const p = pending; pending = null; p.resolve({ type: 'stopped' }); }
  ready = startWorker().then(() => loadedText && ask({ type: 'load', text: loadedText }));
  return ready;
}

function settings() {
  return {
    nodes: Number($('nodes').value) || 0,
    time_ms: Math.round((Number($('seconds').value) || 0) * 1000),
    rules: $('rules').value,
    hash_mb: Number($('hash').value) || 256,
    report: $('report').checked,
    questions_time_ms: Math.round((Number($('questions').value) || 0) * 1000),
  };
}

function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  Object.assign(e, attrs || {});
  for (const c of children) e.append(c);
  return e;
}

function showErrors(errors) {
  const box = $('errors');
  box.replaceChildren(...errors.map((t) => el('li', { textContent: t })));
  box.hidden = errors.length === 0;
}

// One problem's answer on the page: its line, in Japanese notation, and its report.
function showAnswer(card, answer, ms) {
  const r = answer.result;
  const status = r.outcome === 'mate' ? `詰み ${r.plies}手` : r.outcome === 'nomate' ? '不詰' : '未解決 (timeout)';
  card.querySelector('.status').textContent = `${status} · ${r.nodes.toLocaleString()} nodes · ${Math.round(ms)} ms`;
  card.querySelector('.line').textContent = answer.japanese || answer.line;
  card.querySelector('.usi').textContent = answer.line;
  if (answer.html) {
    const frame = el('iframe', { className: 'report', srcdoc: answer.html, title: `report of ${r.id}` });
    frame.onload = () => { frame.style.height = frame.contentDocument.documentElement.scrollHeight + 20 + 'px'; };
    card.append(frame);
  }
}

async function solveAll() {
  const text = $('problems').value;
  await ready;
  stopped = false;
  $('solve').disabled = true; $('stop').disabled = false;
  loadedText = text;
  const loaded = (await ask({ type: 'load', text })).loaded;
  showErrors(loaded.errors);
  const list = $('results');
  list.replaceChildren();
  if (loaded.problems.length === 0 && loaded.errors.length === 0) showErrors(['no problem found: paste SFEN, KIF, KI2, CSA or BOD']);
  const s = settings();
  for (let i = 0; i < loaded.problems.length && !stopped; i++) {
    const p = loaded.problems[i];
    const card = el('section', { className: 'card', id: `problem-${i}` },
      el('h2', { textContent: p.heading }),
      el('p', { className: 'status', textContent: 'solving…' }),
      el('p', { className: 'line' }),
      el('p', { className: 'usi' }));
    list.append(card);
    let best = '';
    onProgress = (m) => {
      if (m.line) best = m.line;
      $('progress').textContent = `${p.label}: ${m.nodes.toLocaleString()} nodes${best ? ` · best so far: ${best}` : ''}`;
    };
    const reply = await ask({ type: 'solve', index: i, settings: s });
    if (reply.type === 'answer') showAnswer(card, reply.answer, reply.ms);
    else if (reply.type === 'stopped') card.querySelector('.status').textContent = `stopped${best ? ` · best so far: ${best}` : ''}`;
    else {
      card.querySelector('.status').textContent = `error: ${reply.error}`;
      if (reply.crashed) await stop();
    }
  }
  onProgress = () => {};
  $('progress').textContent = stopped ? 'stopped' : 'done';
  $('solve').disabled = false; $('stop').disabled = true;
}

// index.html?file=P&nodes=N&rules=R: every problem of P, one answer line each.
async function batch(params) {
  document.body.classList.add('batch');
  const out = $('answers');
  const response = await fetch(params.get('file'));
  const text = await response.text();
  const loaded = (await ask({ type: 'load', text })).loaded;
  showErrors(loaded.errors);
  const s = { ...settings(), report: false, nodes: Number(params.get('nodes')) || 0,
    rules: params.get('rules') || 'tsume', hash_mb: Number(params.get('hash')) || 256, time_ms: 0 };
  for (let i = 0; i < loaded.problems.length; i++) {
    const reply = await ask({ type: 'solve', index: i, settings: s });
    const line = reply.type === 'answer' ? reply.answer.line : `${loaded.problems[i].label} unknown`;
    out.textContent += line + '\n';
    if (reply.crashed) {
      ready = startWorker().then(() => ask({ type: 'load', text }));
      await ready;
    }
  }
  document.title = 'done';
}

async function main() {
  $('stop').disabled = true;
  $('solve').disabled = true;
  ready = startWorker();
  await ready;
  $('solve').disabled = false;
  $('solve').onclick = () => solveAll();
  $('stop').onclick = () => stop();
  $('open').onchange = async () => {
    const f = $('open').files[0];
    if (f) $('problems').value = await f.text();
  };
  const params = new URLSearchParams(location.search);
  if (params.get('file')) await batch(params);
}
main();
