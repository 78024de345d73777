//! The page's module runs the solver's recursive df-pn on WebAssembly's own stack, 1 MiB
//! unless the linker is told otherwise: give it room for the deepest searches (see
//! `solver::stack`; the guard cannot read a wasm stack's bounds).
fn main() {
    if std::env::var("CARGO_CFG_TARGET_ARCH").as_deref() == Ok("wasm32") {
        println!("cargo:rustc-link-arg-cdylib=-zstack-size={}", 32 << 20);
    }
}
