#!/usr/bin/env bash
# Browser tests of the page: builds it (web/build.sh), builds the native examples (the
# `recommend` answers every position the tests reach; `path` the solutions of a pattern;
# `graph` builds a small PC graph),
# makes a test site (web/dist/ and that small graph as graphs/srs-softdrop, plus damaged/:
# the same site with the graph's bytes damaged), serves it on 127.0.0.1 (a free port), and
# runs web/tests/browser.mjs in Debian's headless Chromium through puppeteer-core.
# Screenshots and timings go to target/web-test/. Exits non-zero on any failure.
#
# PC_WEB_FIGURES=1 also solves the empty field with I held and JLOSTZ to the end, in the
# browser and natively (about a minute more): the figures of web/README.md.
set -euo pipefail

web="$(cd "$(dirname "$0")" && pwd)"
root="$(dirname "$web")"
out="$root/target/web-test"
site="$out/site"
# The small graph: a field a few pieces from a PC (72k fields, 0.8 MB, built in seconds).
graph_field='###......./###......./###......./###.......'
say() { echo "web/test.sh: $*" >&2; }
die() { say "FAILED: $*"; exit 1; }

"$web/build.sh" || die "the build failed"
mkdir -p "$out"

say "native examples"
(cd "$root" && cargo build --release --quiet --example recommend --example graph --example path) ||
    die "the native examples did not build"
target="${CARGO_TARGET_DIR:-$root/target}"
[[ "$target" = /* ]] || target="$root/$target"
recommend="$target/release/examples/recommend"
path_example="$target/release/examples/path"
native() { # the recommend example's JSON for a position
    "$recommend" "$@" --no-graph --format json
}
native --field '####......' --clear-line 4 --hold O --queue TSZLJI --bag OTSZLJ >"$out/native-119.json" ||
    die "the native recommend example failed"
figures=()
if [ "${PC_WEB_FIGURES:-0}" = 1 ]; then
    native --field '..........' --hold I --queue JLOSTZ >"$out/native-long.json" ||
        die "the native recommend example failed"
    figures=(--figures "$out/native-long.json")
fi

say "test site: web/dist and a small graph of $graph_field"
rm -rf "$site"
mkdir -p "$site"
for f in "$web"/dist/*; do
    [ "$(basename "$f")" = graphs ] || cp -r "$f" "$site/"
done
"$web/build-graphs.sh" --dest "$site" --field "$graph_field" srs || die "the small graph was not built"
# damaged/: the same page, its graph with one byte changed (then compressed again, so that
# only the graph's own checks can tell).
mkdir -p "$site/damaged/graphs"
for f in "$site"/*; do
    case "$(basename "$f")" in graphs|damaged) ;; *) ln -s "$f" "$site/damaged/" ;; esac
done
python3 - "$site/graphs" "$site/damaged/graphs" <<'EOF'
import hashlib, json, os, subprocess, sys
good, bad = sys.argv[1:3]
index = json.load(open(os.path.join(good, 'index.json')))
entry = index['graphs']['srs-softdrop']
unzstd = ['zstd', '-q', '-d', '--long=23', '-c', os.path.join(good, entry['file'])]
raw = bytearray(subprocess.run(unzstd, check=True, capture_output=True).stdout)
raw[len(raw) // 2] ^= 0x10
zstd = ['zstd', '-q', '-19', '--long=23', '-c']
data = subprocess.run(zstd, input=bytes(raw), check=True, capture_output=True).stdout
open(os.path.join(bad, entry['file']), 'wb').write(data)
entry = dict(entry, bytes=len(data), sha256=hashlib.sha256(data).hexdigest())
entry.pop('prepared', None)
json.dump({'graphs': {'srs-softdrop': entry}}, open(os.path.join(bad, 'index.json'), 'w'))
EOF
# five-damaged/: the same page and graph, the site's copy of what five unknown pieces read
# with one byte changed (then compressed again).
mkdir -p "$site/five-damaged/graphs"
for f in "$site"/*; do
    case "$(basename "$f")" in graphs|damaged|five-damaged) ;; *) ln -s "$f" "$site/five-damaged/" ;; esac
done
python3 - "$site/graphs" "$site/five-damaged/graphs" <<'EOF'
import hashlib, json, os, subprocess, sys
good, bad = sys.argv[1:3]
index = json.load(open(os.path.join(good, 'index.json')))
entry = index['graphs']['srs-softdrop']
os.symlink(os.path.join(good, entry['file']), os.path.join(bad, entry['file']))
five = entry['prepared']
unzstd = ['zstd', '-q', '-d', '--long=23', '-c', os.path.join(good, five['file'])]
raw = bytearray(subprocess.run(unzstd, check=True, capture_output=True).stdout)
raw[len(raw) // 2] ^= 0x10
data = subprocess.run(['zstd', '-q', '-19', '-c'], input=bytes(raw), check=True, capture_output=True).stdout
open(os.path.join(bad, five['file']), 'wb').write(data)
entry['prepared'] = dict(five, bytes=len(data), sha256=hashlib.sha256(data).hexdigest())
json.dump({'graphs': {'srs-softdrop': entry}}, open(os.path.join(bad, 'index.json'), 'w'))
EOF

port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
python3 -m http.server "$port" --bind 127.0.0.1 --directory "$site" >"$out/server.log" 2>&1 &
server=$!
trap 'kill "$server" 2>/dev/null || true' EXIT
for _ in $(seq 50); do
    python3 -c "import socket; socket.create_connection(('127.0.0.1', $port), 0.2)" 2>/dev/null && break
    kill -0 "$server" 2>/dev/null || die "the server did not start (see $out/server.log)"
    sleep 0.1
done

say "browser checks on http://127.0.0.1:$port/"
node "$web/tests/browser.mjs" --url "http://127.0.0.1:$port/" --native "$out/native-119.json" \
    --recommend "$recommend" --path "$path_example" --server-log "$out/server.log" --graph-field "$graph_field" \
    --out "$out" "${figures[@]}" || die "browser checks (screenshots in $out)"
say "passed; screenshots in $out"
