#!/usr/bin/env bash
# Puts the PC field graphs on the site: web/dist/graphs/<kicks>-<drop>.pcgraph.zst, one per
# rule set, and web/dist/graphs/index.json, which the page reads to learn what the site has
# (file, kick table, drop mode, coding, bytes as served, bytes raw, SHA-256, fields, start
# field).
#
#   web/build-graphs.sh [--dest DIR] [--field ROWS] [KICKS[:DROP]...]
#
# KICKS: srs, srs+, jstris180, nullpomino180, none (default: srs srs+); DROP: softdrop (the
# default) or harddrop, e.g. `web/build-graphs.sh srs srs:harddrop`. Each graph is the one
# `cargo run --release --example graph -- build -K KICKS -d DROP` finds in its cache folder
# ($PC_GRAPH_DIR, else ~/.cache/pc), or builds there when it is missing (minutes each),
# written again with its moves laid out by piece (`--by-piece`, which compresses far
# better), then compressed with zstd -19 and an 8 MiB window (--long=23: the module's
# decompressor holds one window), which the page's module decompresses as the download
# streams in. Beside each graph, <kicks>-<drop>.five.zst: what the walk of five unknown
# pieces reads on it (`--prepared`, compressed the same way), which the page fetches once
# the graph is in rather than making it (seconds in the module); the index's entry names it
# under `prepared` (file, coding, bytes, raw, sha256). The figures are in web/README.md.
# The files are not in git: run this after web/build.sh (which keeps dist/graphs/).
#
# --field ROWS builds a small graph instead, of that field's PCs (clear line 4; seconds):
# the browser tests use one. --dest DIR writes DIR/graphs/ instead of web/dist/graphs/.
# Needs the zstd command (Debian's zstd; web/build.sh installs it).
# Environment: CARGO_TARGET_DIR as cargo reads it; ZSTD_LEVEL (default 19).
set -euo pipefail

web="$(cd "$(dirname "$0")" && pwd)"
root="$(dirname "$web")"
dest="$web/dist"
field=""
say() { echo "web/build-graphs.sh: $*" >&2; }
die() { say "error: $*"; exit 1; }

rules=()
while (($#)); do
    case "$1" in
        --dest) dest="$2"; shift 2 ;;
        --field) field="$2"; shift 2 ;;
        -h|--help) sed -n '2,19p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        -*) die "unknown option $1 (see --help)" ;;
        *) rules+=("$1"); shift ;;
    esac
done
((${#rules[@]})) || rules=(srs srs+)

out="$dest/graphs"
mkdir -p "$out"
say "cargo build --release --example graph"
(cd "$root" && cargo build --release --quiet --example graph) || die "the graph example did not build"
target="${CARGO_TARGET_DIR:-$root/target}"
[[ "$target" = /* ]] || target="$root/$target"
graph="$target/release/examples/graph"
[ -x "$graph" ] || die "$graph is missing"

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

for rule in "${rules[@]}"; do
    kicks="${rule%%:*}"
    drop="softdrop"
    [[ "$rule" == *:* ]] && drop="${rule#*:}"
    case "$drop" in
        soft|softdrop) drop=softdrop ;;
        hard|harddrop) drop=harddrop ;;
        *) die "$rule: the drop mode is softdrop or harddrop" ;;
    esac
    # File names: srs+ is srsplus (a '+' in a URL path is read as itself, but not everywhere).
    lower="$(echo "$kicks" | tr '[:upper:]' '[:lower:]')"
    case "$lower" in
        srs) name=srs; kicks=srs ;;
        srs+|srsplus) name=srsplus; kicks=srs+ ;;
        jstris180) name=jstris180; kicks=jstris180 ;;
        nullpomino180) name=nullpomino180; kicks=nullpomino180 ;;
        none|nokicks) name=none; kicks=none ;;
        *) die "$kicks: not one of srs, srs+, jstris180, nullpomino180, none" ;;
    esac
    base="$name-$drop"
    if [ -n "$field" ]; then
        say "$base: building the graph of $field"
        "$graph" build -K "$kicks" -d "$drop" --field "$field" --out "$tmp/$base.bin" \
            --by-piece "$tmp/$base.pieces" --prepared "$tmp/$base.five" --format json >"$tmp/$base.json" ||
            die "$base: the build failed"
    else
        say "$base: the cached graph (built now if missing: minutes)"
        "$graph" build -K "$kicks" -d "$drop" --by-piece "$tmp/$base.pieces" --prepared "$tmp/$base.five" \
            --format json >"$tmp/$base.json" || die "$base: the build failed"
    fi
    raw="$tmp/$base.pieces"
    [ -f "$raw" ] || die "$base: $raw is missing"
    say "$base: zstd -${ZSTD_LEVEL:-19} --long=23 $(stat -c %s "$raw") bytes (minutes for a full graph)"
    zstd -q -"${ZSTD_LEVEL:-19}" --long=23 -c "$raw" >"$tmp/$base.pcgraph.zst" || die "$base: zstd failed"
    # A graph without fields four pieces from a PC has nothing of the kind.
    if [ -f "$tmp/$base.five" ]; then
        zstd -q -"${ZSTD_LEVEL:-19}" --long=23 -c "$tmp/$base.five" >"$tmp/$base.five.zst" ||
            die "$base: zstd failed"
    fi
    python3 - "$raw" "$tmp/$base.pcgraph.zst" "$tmp/$base.json" "$kicks" "$drop" "$field" \
        "$tmp/$base.five" "$tmp/$base.five.zst" >"$tmp/$base.entry.json" <<'EOF'
import hashlib, json, os, sys
raw, packed, built, kicks, drop, field, five, five_packed = sys.argv[1:9]
info = json.load(open(built))
sha256 = lambda path: hashlib.sha256(open(path, 'rb').read()).hexdigest()
entry = {
    'file': os.path.basename(packed), 'kicks': kicks, 'drop': drop, 'coding': 'zstd',
    'bytes': os.path.getsize(packed), 'raw': os.path.getsize(raw), 'sha256': sha256(packed),
    'fields': info.get('fields'), 'start': field or '..........',
}
if os.path.exists(five_packed):
    entry['prepared'] = {
        'file': os.path.basename(five_packed), 'coding': 'zstd', 'bytes': os.path.getsize(five_packed),
        'raw': os.path.getsize(five), 'sha256': sha256(five_packed),
    }
print(json.dumps(entry))
EOF
    rm -f "$out/$base.five.zst"
    if [ -f "$tmp/$base.five.zst" ]; then mv "$tmp/$base.five.zst" "$out/$base.five.zst"; fi
    mv "$tmp/$base.pcgraph.zst" "$out/$base.pcgraph.zst"
    mv "$tmp/$base.entry.json" "$out/$base.entry.json"
    # A file of the old coding (gzip) would be listed beside it.
    rm -f "$out/$base.pcgraph.gz"
    say "$base: $(stat -c %s "$out/$base.pcgraph.zst") bytes served; what five unknown pieces read: $(stat -c %s "$out/$base.five.zst" 2>/dev/null || echo none) bytes"
done

# The index: every graph of the folder.
python3 - "$out" >"$tmp/index.json" <<'EOF'
import glob, json, os, sys
out = sys.argv[1]
graphs = {}
for entry in sorted(glob.glob(os.path.join(out, '*.entry.json'))):
    e = json.load(open(entry))
    if os.path.exists(os.path.join(out, e['file'])):
        graphs[e['file'].removesuffix('.pcgraph.zst')] = e
print(json.dumps({'graphs': graphs}, indent=1))
EOF
mv "$tmp/index.json" "$out/index.json"
say "$out/index.json: $(python3 -c 'import json,sys; print(", ".join(json.load(open(sys.argv[1]))["graphs"]))' "$out/index.json")"
