#!/usr/bin/env bash
# Browser tests of the page: builds it (web/build.sh), gets the native `recommend` answer
# for the same position, serves web/dist/ on 127.0.0.1 (a free port), and runs
# web/tests/browser.mjs in Debian's headless Chromium through puppeteer-core.
# Screenshots and timings go to target/web-test/. Exits non-zero on any failure.
#
# PC_WEB_FIGURES=1 also solves the empty field with I held and JLOSTZ to the end, in the
# browser and natively (about a minute more): the figures of web/README.md.
set -euo pipefail

web="$(cd "$(dirname "$0")" && pwd)"
root="$(dirname "$web")"
out="$root/target/web-test"
say() { echo "web/test.sh: $*" >&2; }
die() { say "FAILED: $*"; exit 1; }

"$web/build.sh" || die "the build failed"
mkdir -p "$out"

native() { # the recommend example's JSON for a position
    (cd "$root" && cargo run --release --quiet --example recommend -- "$@" --format json)
}
say "native recommend"
native --field '####......' --clear-line 4 --hold O --queue TSZLJI --bag OTSZLJ >"$out/native-119.json" ||
    die "the native recommend example failed"
figures=()
if [ "${PC_WEB_FIGURES:-0}" = 1 ]; then
    native --field '..........' --hold I --queue JLOSTZ >"$out/native-long.json" ||
        die "the native recommend example failed"
    figures=(--figures "$out/native-long.json")
fi

port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
python3 -m http.server "$port" --bind 127.0.0.1 --directory "$web/dist" >"$out/server.log" 2>&1 &
server=$!
trap 'kill "$server" 2>/dev/null || true' EXIT
for _ in $(seq 50); do
    python3 -c "import socket; socket.create_connection(('127.0.0.1', $port), 0.2)" 2>/dev/null && break
    kill -0 "$server" 2>/dev/null || die "the server did not start (see $out/server.log)"
    sleep 0.1
done

say "browser checks on http://127.0.0.1:$port/"
node "$web/tests/browser.mjs" --url "http://127.0.0.1:$port/" --native "$out/native-119.json" \
    --out "$out" "${figures[@]}" || die "browser checks (screenshots in $out)"
say "passed; screenshots in $out"
