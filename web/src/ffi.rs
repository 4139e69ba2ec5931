//! The WebAssembly exports: a JSON request in, a JSON answer out, through
//! [`crate::api::handle`]. `static/pc.js` is the other side.
//!
//! The page calls, in this order:
//! 1. `pc_input(len) -> ptr`: the input buffer is made `len` bytes long; the page writes
//!    the request's UTF-8 bytes there, exactly `len` of them, before it calls anything else.
//! 2. `pc_call() -> len`: answers the request in the input buffer; the answer is `len`
//!    bytes of UTF-8 JSON.
//! 3. `pc_output() -> ptr` (and `pc_output_len()`): where the answer is. It stays there
//!    until the next call into the module.
//!
//! Pointers are offsets into the module's memory. A call may grow the memory, which
//! detaches the page's old `memory.buffer`: the page takes `memory.buffer` afresh after
//! every call.
//!
//! A panic aborts (a trap in the page) after the hook below has put
//! `{"ok":false,"error":"internal error: …"}` in the output buffer, so the page can show it.
//! The instance is not used again after a trap (a `RefCell` may still be borrowed): the page
//! starts a new one.
//!
//! There is no `unsafe` block: the buffers are `Vec`s owned here, and the page touches their
//! bytes only between calls, when nothing here borrows them. The one `unsafe` is the
//! `no_mangle` attribute, which says that each exported name is unique in the module (they
//! all start with `pc_`).
#![allow(unsafe_code)]

use std::cell::RefCell;
use std::sync::Once;

thread_local! {
    static INPUT: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
    static OUTPUT: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
}

/// Makes the input buffer `len` bytes long (zeros) and returns where it starts.
#[unsafe(no_mangle)]
pub extern "C" fn pc_input(len: usize) -> *mut u8 {
    INPUT.with(|input| {
        let mut input = input.borrow_mut();
        input.clear();
        input.resize(len, 0);
        input.as_mut_ptr()
    })
}

/// Answers the JSON request in the input buffer; returns the answer's length in bytes.
#[unsafe(no_mangle)]
pub extern "C" fn pc_call() -> usize {
    static HOOK: Once = Once::new();
    HOOK.call_once(install_panic_hook);
    let request = INPUT.with(|input| String::from_utf8(std::mem::take(&mut *input.borrow_mut())));
    let answer = match request {
        Ok(request) => crate::api::handle(&request),
        Err(_) => r#"{"ok":false,"error":"bad request: not UTF-8","input":"request"}"#.to_string(),
    };
    set_output(answer.into_bytes())
}

/// Makes the graph's chunk buffer `len` bytes long (zeros) and returns where it starts:
/// the page writes the next chunk of a graph file there, then calls [`pc_graph_push`]
/// (after `{"op":"graph_begin",…}`; see [`crate::graph`]).
#[unsafe(no_mangle)]
pub extern "C" fn pc_graph_chunk(len: usize) -> *mut u8 {
    crate::graph::chunk(len)
}

/// Reads the chunk in the graph's buffer (`last` non-zero: no more will come); returns
/// how many bytes it decompressed, or `usize::MAX` when the load failed (`{"op":"graph"}`
/// then says why).
#[unsafe(no_mangle)]
pub extern "C" fn pc_graph_push(last: u32) -> usize {
    crate::graph::push(last != 0).unwrap_or(usize::MAX)
}

/// Starts making the loaded graph's file in the plain layout, for the page's cache; its
/// length in bytes, or `usize::MAX` when no graph is loaded (see [`crate::graph`]).
#[unsafe(no_mangle)]
pub extern "C" fn pc_graph_plain_begin() -> usize {
    crate::graph::plain_begin()
        .and_then(|len| usize::try_from(len).ok())
        .unwrap_or(usize::MAX)
}

/// Makes the next chunk of that file: its length (at [`pc_graph_plain_bytes`]), 0 when
/// the file is all given, `usize::MAX` when none is being made (a load since let it go).
#[unsafe(no_mangle)]
pub extern "C" fn pc_graph_plain_next() -> usize {
    crate::graph::plain_next().unwrap_or(usize::MAX)
}

/// Where the chunk the last [`pc_graph_plain_next`] made is.
#[unsafe(no_mangle)]
pub extern "C" fn pc_graph_plain_bytes() -> *const u8 {
    crate::graph::plain_chunk()
}

/// Makes the buffer of what a walk of five unknown pieces reads `len` bytes long (zeros; 0
/// lets it go) and returns where it starts (null when the memory cannot grow that far):
/// the page writes the file it kept (or the site's copy) there, then asks
/// `{"op":"graph_prepared_load"}` (see
/// [`crate::graph`]).
#[unsafe(no_mangle)]
pub extern "C" fn pc_graph_prepared_buffer(len: usize) -> *mut u8 {
    crate::graph::prepared_buffer(len)
}

/// Puts what a walk of five unknown pieces reads, made on the loaded graph, in that buffer
/// for the page to keep: its length (at [`pc_graph_prepared_bytes`]), `usize::MAX` when
/// no graph is loaded or it has not made them.
#[unsafe(no_mangle)]
pub extern "C" fn pc_graph_prepared_save() -> usize {
    crate::graph::prepared_save().unwrap_or(usize::MAX)
}

/// Where that buffer starts.
#[unsafe(no_mangle)]
pub extern "C" fn pc_graph_prepared_bytes() -> *const u8 {
    crate::graph::prepared_bytes()
}

/// Where the last answer starts.
#[unsafe(no_mangle)]
pub extern "C" fn pc_output() -> *const u8 {
    OUTPUT.with(|output| output.borrow().as_ptr())
}

/// The last answer's length in bytes (also after a panic).
#[unsafe(no_mangle)]
pub extern "C" fn pc_output_len() -> usize {
    OUTPUT.with(|output| output.borrow().len())
}

fn set_output(bytes: Vec<u8>) -> usize {
    OUTPUT.with(|output| {
        let len = bytes.len();
        *output.borrow_mut() = bytes;
        len
    })
}

/// On a panic, leaves an error answer with the panic's message in the output buffer, then
/// runs the hook that was there before (the default one prints it natively).
fn install_panic_hook() {
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let message = info
            .payload()
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| info.payload().downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "a panic".to_string());
        let place = info
            .location()
            .map(|l| format!(" at {}:{}", l.file(), l.line()))
            .unwrap_or_default();
        let answer = serde_json::json!({
            "ok": false,
            "error": format!("internal error: {message}{place}"),
            "input": "position",
        });
        let _ = OUTPUT.try_with(|output| {
            if let Ok(mut output) = output.try_borrow_mut() {
                *output = answer.to_string().into_bytes();
            }
        });
        previous(info);
    }));
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;

    /// What the page does: size the input, write the request into it, call, read.
    fn call(request: &[u8]) -> Value {
        let ptr = pc_input(request.len());
        INPUT.with(|input| {
            let mut input = input.borrow_mut();
            assert_eq!(input.as_mut_ptr(), ptr);
            input.copy_from_slice(request);
        });
        let len = pc_call();
        assert_eq!(len, pc_output_len());
        let ptr = pc_output();
        OUTPUT.with(|output| {
            let output = output.borrow();
            assert_eq!(output.as_ptr(), ptr);
            serde_json::from_slice(&output[..len]).unwrap()
        })
    }

    #[test]
    fn requests_in_answers_out() {
        let answer = call(br#"{"op":"fumen","fumen":"v115@9gF8DeF8DeF8DeF8NeAgH"}"#);
        assert_eq!(answer["ok"], true);
        assert_eq!(answer["height"], 4);
        let answer = call(b"\xff\xfe");
        assert_eq!(answer["error"], "bad request: not UTF-8");
        let answer = call(b"");
        assert_eq!(answer["ok"], false);
    }

    #[test]
    fn a_panic_leaves_its_message_as_the_answer() {
        call(b"{}");
        let caught = std::panic::catch_unwind(|| panic!("the test panics"));
        assert!(caught.is_err());
        let len = pc_output_len();
        let answer: Value =
            OUTPUT.with(|output| serde_json::from_slice(&output.borrow()[..len]).unwrap());
        assert_eq!(answer["ok"], false);
        let error = answer["error"].as_str().unwrap();
        assert!(
            error.starts_with("internal error: the test panics at "),
            "{error}"
        );
    }
}
