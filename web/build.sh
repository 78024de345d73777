#!/usr/bin/env bash
# Builds the workbench page: web/dist/index.html, one file (the solver's WebAssembly module,
# the worker and the page's script inside it), so that it opens from a file as from any
# static host. Uses rustup's wasm32-unknown-unknown target where rustup can add it, else
# Debian's rustc-web (apt-get install rustc-web cargo-web rust-web-src lld-22) building the
# standard library from its sources; says which.
set -euo pipefail
cd "$(dirname "$0")/.."
target=wasm32-unknown-unknown
# WEB_TOOLCHAIN=rustup or debian picks one; by default rustup's where it can add the target.
want=${WEB_TOOLCHAIN:-any}
out=target
if [ "$want" != debian ] && command -v rustup >/dev/null 2>&1 \
    && { rustup target list --installed 2>/dev/null | grep -qx "$target" || rustup target add "$target" >/dev/null 2>&1; }; then
  echo "web/build.sh: rustup's $target target"
  cargo build --release -p tsumugi-web --target "$target"
elif [ "$want" != rustup ] && [ -x /usr/bin/cargo ] && [ -x /usr/bin/rustc ]; then
  echo "web/build.sh: Debian's rustc-web, the standard library built from its sources"
  # Its own target folder: another compiler's artefacts would make either rebuild everything.
  out=target/web-debian
  CARGO_TARGET_DIR=$out RUSTC=/usr/bin/rustc RUSTC_BOOTSTRAP=1 /usr/bin/cargo build --release \
    -p tsumugi-web --target "$target" -Zbuild-std=std,panic_abort
else
  echo "web/build.sh: no Rust toolchain for $target (rustup, or Debian's rustc-web 1.88 or newer: apt-get install rustc-web cargo-web rust-web-src lld-22)" >&2
  exit 1
fi
mkdir -p web/dist
python3 - "$out/$target/release/web.wasm" web/page web/dist/index.html <<'PY'
import base64, pathlib, sys
wasm, page, out = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2]), pathlib.Path(sys.argv[3])
html = (page / "index.html").read_text(encoding="utf-8")
parts = {
    "/*STYLE*/": (page / "style.css").read_text(encoding="utf-8"),
    "/*WORKER*/": (page / "worker.js").read_text(encoding="utf-8"),
    "/*WASM*/": base64.b64encode(wasm.read_bytes()).decode("ascii"),
    "/*APP*/": (page / "app.js").read_text(encoding="utf-8"),
}
for mark, text in parts.items():
    assert "</script" not in text.lower(), f"{mark} would end its script element"
    html = html.replace(mark, text, 1)
out.write_text(html, encoding="utf-8")
print(f"web/build.sh: {out} ({out.stat().st_size // 1024} KiB, the module {wasm.stat().st_size // 1024} KiB)")
PY
