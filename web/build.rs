//! Link settings of the WebAssembly build.

fn main() {
    // The solver recurses (one frame per piece of a PC, with search buffers on the stack);
    // wasm-ld gives a wasm32 module 1 MiB of stack unless told otherwise, and a wasm stack
    // overflow is not caught the way a native one is. 8 MiB is what a native main thread has.
    if std::env::var("CARGO_CFG_TARGET_ARCH").as_deref() == Ok("wasm32") {
        println!("cargo:rustc-link-arg-cdylib=-z");
        println!("cargo:rustc-link-arg-cdylib=stack-size=8388608");
    }
    println!("cargo:rerun-if-changed=build.rs");
}
