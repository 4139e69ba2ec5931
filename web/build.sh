#!/usr/bin/env bash
# Builds the page into web/dist/: installs what is missing (Debian's Rust with the std
# sources, wasm-ld, Chromium, zstd for the graphs; the npm packages of web/package-lock.json), compiles pc-web to
# wasm32-unknown-unknown, runs wasm-opt, and copies the static files beside the module.
# Quick when everything is there already. Why it goes this way:
#  - rustup here has only the native target, so the build uses Debian's rustc 1.96
#    (rustc-web) and builds std from its sources (-Zbuild-std, RUSTC_BOOTSTRAP=1);
#  - rustc-web ships no rust-lld: link with Debian's wasm-ld-22;
#  - its own CARGO_TARGET_DIR, so it never fights the native build's cache;
#  - wasm-opt from npm's binaryen (Debian's 108 is too old for some modules);
#  - WebAssembly SIMD and the other post-MVP features every browser with SIMD has (Chrome
#    91, Firefox 89, Safari 16.4): the graph's walk uses them.
#
# Environment: PC_WEB_TARGET_DIR (default: target/wasm-web under the workspace).
set -euo pipefail

web="$(cd "$(dirname "$0")" && pwd)"
root="$(dirname "$web")"
dist="$web/dist"
target="${PC_WEB_TARGET_DIR:-$root/target/wasm-web}"

say() { echo "web/build.sh: $*" >&2; }
die() { say "error: $*"; exit 1; }

# --- Debian packages -----------------------------------------------------------------------
packages=(rustc-web cargo-web rust-web-src libstd-rust-web-dev lld-22 chromium zstd)
command -v node >/dev/null && command -v npm >/dev/null || packages+=(nodejs npm)
missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
    sudo=()
    if [ "$(id -u)" != 0 ]; then
        command -v sudo >/dev/null || die "needs root (or sudo) to install: ${missing[*]}"
        sudo=(sudo)
    fi
    say "installing ${missing[*]}"
    "${sudo[@]}" apt-get update -q
    DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

# --- npm packages (puppeteer-core for the tests, binaryen for wasm-opt) -------------------
# npm writes node_modules/.package-lock.json on install: reinstall when the lock is newer.
if [ ! -f "$web/node_modules/.package-lock.json" ] ||
    [ "$web/package-lock.json" -nt "$web/node_modules/.package-lock.json" ]; then
    say "npm ci"
    (cd "$web" && npm ci --no-audit --no-fund --loglevel=error)
fi
wasm_opt="$web/node_modules/.bin/wasm-opt"
[ -x "$wasm_opt" ] || die "$wasm_opt is missing after npm ci"

# --- the module ------------------------------------------------------------------------------
say "cargo build (wasm32-unknown-unknown, profile wasm)"
(
    cd "$root"
    RUSTC_BOOTSTRAP=1 RUSTC=/usr/bin/rustc CARGO_TARGET_DIR="$target" \
        CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_LINKER=wasm-ld-22 \
        CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS="-C target-feature=+simd128,+bulk-memory,+nontrapping-fptoint,+sign-ext,+mutable-globals" \
        /usr/bin/cargo build --locked -p pc-web --profile wasm \
        --target wasm32-unknown-unknown -Zbuild-std=std,panic_abort
)
raw="$target/wasm32-unknown-unknown/wasm/pc_web.wasm"
opt="$target/pc_web.opt.wasm"
[ -f "$raw" ] || die "$raw was not built"
if [ ! -f "$opt" ] || [ "$raw" -nt "$opt" ]; then
    say "wasm-opt -O3"
    "$wasm_opt" -O3 --strip-debug --strip-producers "$raw" -o "$opt"
fi

# --- the page ---------------------------------------------------------------------------------
# Everything but graphs/ (web/build-graphs.sh writes it; minutes to make again).
mkdir -p "$dist/graphs"
find "$dist" -mindepth 1 -maxdepth 1 ! -name graphs -exec rm -rf {} +
cp "$web"/static/* "$dist/"
cp "$opt" "$dist/pc_web.wasm"
# The page reads graphs/index.json to learn which graphs the site has: none yet.
[ -f "$dist/graphs/index.json" ] || echo '{"graphs":{}}' >"$dist/graphs/index.json"
say "dist/ ready: pc_web.wasm $(stat -c %s "$raw") bytes raw, $(stat -c %s "$dist/pc_web.wasm") after wasm-opt"
