//! The module's interface to the page's worker (`web/page/worker.js`): plain functions over
//! the module's memory. Text goes in through a buffer the worker asks for ([`tsumugi_alloc`])
//! and comes out as UTF-8 at [`tsumugi_output`] / [`tsumugi_output_len`] until the next call;
//! structured answers are JSON. The page lends two functions, imported from `tsumugi`:
//! `now_ms` (the solver's clock, see `solver::clock`) and `progress`.

use crate::session::{Session, Settings};
use std::cell::RefCell;

thread_local! {
    static SESSION: RefCell<Session> = RefCell::new(Session::default());
    static OUTPUT: RefCell<String> = const { RefCell::new(String::new()) };
}

#[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
#[link(wasm_import_module = "tsumugi")]
extern "C" {
    /// Nodes so far, and the mate line known so far (USI moves, empty while none).
    fn progress(nodes: f64, line: *const u8, line_len: usize);
}

/// Tells the page how the solve goes (a no-op natively).
fn report_progress(nodes: u64, line: &str) {
    #[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
    // SAFETY: the page's import reads `line_len` bytes at `line` during the call.
    unsafe {
        progress(nodes as f64, line.as_ptr(), line.len())
    };
    #[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
    let _ = (nodes, line);
}

fn set_output(text: String) {
    OUTPUT.with(|o| *o.borrow_mut() = text);
}

/// A buffer of `len` bytes for the worker to write text into; freed by the call it is
/// passed to.
#[no_mangle]
pub extern "C" fn tsumugi_alloc(len: usize) -> *mut u8 {
    let mut buf = Vec::<u8>::with_capacity(len.max(1));
    let ptr = buf.as_mut_ptr();
    std::mem::forget(buf);
    ptr
}

/// Takes back a buffer of [`tsumugi_alloc`] holding `len` bytes of text.
///
/// # Safety
/// `ptr` comes from `tsumugi_alloc(cap)` with `len <= cap`, and is not used after.
unsafe fn take_text(ptr: *mut u8, len: usize, cap: usize) -> String {
    // SAFETY: as the caller promises.
    let bytes = unsafe { Vec::from_raw_parts(ptr, len, cap.max(1)) };
    String::from_utf8_lossy(&bytes).into_owned()
}

/// Where the last answer is.
#[no_mangle]
pub extern "C" fn tsumugi_output() -> *const u8 {
    OUTPUT.with(|o| o.borrow().as_ptr())
}

#[no_mangle]
pub extern "C" fn tsumugi_output_len() -> usize {
    OUTPUT.with(|o| o.borrow().len())
}

/// Reads the problems of the text at `ptr` (`len` bytes of a buffer of `cap`); the output is
/// the list as JSON (`session::Loaded`). Returns the number of problems.
///
/// # Safety
/// As [`take_text`].
#[no_mangle]
pub unsafe extern "C" fn tsumugi_load(ptr: *mut u8, len: usize, cap: usize) -> u32 {
    // SAFETY: passed on from the caller.
    let text = unsafe { take_text(ptr, len, cap) };
    let loaded = SESSION.with(|s| s.borrow_mut().load(&text));
    let n = loaded.problems.len() as u32;
    set_output(serde_json::to_string(&loaded).unwrap_or_default());
    n
}

/// Solves problem `index` of the text loaded last, with the settings (JSON, `session::Settings`)
/// at `ptr`; the output is `{"answer": ...}` or `{"error": "..."}`. Returns 1 on an answer.
///
/// # Safety
/// As [`take_text`].
#[no_mangle]
pub unsafe extern "C" fn tsumugi_solve(index: u32, ptr: *mut u8, len: usize, cap: usize) -> u32 {
    // SAFETY: passed on from the caller.
    let text = unsafe { take_text(ptr, len, cap) };
    let answered = serde_json::from_str::<Settings>(&text)
        .map_err(|e| format!("settings: {e}"))
        .and_then(|settings| {
            SESSION.with(|s| {
                s.borrow_mut().solve(index as usize, &settings, &mut |p| {
                    let line = p
                        .mate
                        .as_ref()
                        .map(|m| m.iter().map(|mv| mv.to_string()).collect::<Vec<_>>().join(" "));
                    report_progress(p.nodes, line.as_deref().unwrap_or(""));
                })
            })
        });
    let (json, ok) = match answered {
        Ok(a) => (serde_json::json!({ "answer": a }), 1),
        Err(e) => (serde_json::json!({ "error": e }), 0),
    };
    set_output(json.to_string());
    ok
}
