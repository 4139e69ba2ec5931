#!/usr/bin/env bash
# Puts the PC field graphs on the site: web/dist/graphs/<kicks>-<drop>.pcgraph.gz, one per
# rule set, and web/dist/graphs/index.json, which the page reads to learn what the site has
# (file, kick table, drop mode, bytes as served, bytes raw, SHA-256, fields, start field).
#
#   web/build-graphs.sh [--dest DIR] [--field ROWS] [KICKS[:DROP]...]
#
# KICKS: srs, srs+, jstris180, nullpomino180, none (default: srs srs+); DROP: softdrop (the
# default) or harddrop, e.g. `web/build-graphs.sh srs srs:harddrop`. Each graph is the one
# `cargo run --release --example graph -- build -K KICKS -d DROP` finds in its cache folder
# ($PC_GRAPH_DIR, else ~/.cache/pc), or builds there when it is missing (minutes each);
# then it is compressed with gzip -9, which the browser's DecompressionStream reads.
# The files are not in git: run this after web/build.sh (which keeps dist/graphs/).
#
# --field ROWS builds a small graph instead, of that field's PCs (clear line 4; seconds):
# the browser tests use one. --dest DIR writes DIR/graphs/ instead of web/dist/graphs/.
# Environment: CARGO_TARGET_DIR as cargo reads it; GZIP_LEVEL (default 9).
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
        "$graph" build -K "$kicks" -d "$drop" --field "$field" --out "$tmp/$base.bin" --format json >"$tmp/$base.json" ||
            die "$base: the build failed"
    else
        say "$base: the cached graph (built now if missing: minutes)"
        "$graph" build -K "$kicks" -d "$drop" --format json >"$tmp/$base.json" || die "$base: the build failed"
    fi
    raw="$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["path"])' "$tmp/$base.json")"
    [ -f "$raw" ] || die "$base: $raw is missing"
    say "$base: gzip -${GZIP_LEVEL:-9} $(stat -c %s "$raw") bytes"
    gzip -"${GZIP_LEVEL:-9}" -n -c "$raw" >"$tmp/$base.pcgraph.gz"
    python3 - "$raw" "$tmp/$base.pcgraph.gz" "$tmp/$base.json" "$kicks" "$drop" "$field" >"$tmp/$base.entry.json" <<'EOF'
import hashlib, json, os, sys
raw, gz, built, kicks, drop, field = sys.argv[1:7]
info = json.load(open(built))
digest = hashlib.sha256(open(gz, 'rb').read()).hexdigest()
print(json.dumps({
    'file': os.path.basename(gz), 'kicks': kicks, 'drop': drop,
    'bytes': os.path.getsize(gz), 'raw': os.path.getsize(raw), 'sha256': digest,
    'fields': info.get('fields'), 'start': field or '..........',
}))
EOF
    mv "$tmp/$base.pcgraph.gz" "$out/$base.pcgraph.gz"
    mv "$tmp/$base.entry.json" "$out/$base.entry.json"
    say "$base: $(stat -c %s "$out/$base.pcgraph.gz") bytes served"
done

# The index: every graph of the folder.
python3 - "$out" >"$tmp/index.json" <<'EOF'
import glob, json, os, sys
out = sys.argv[1]
graphs = {}
for entry in sorted(glob.glob(os.path.join(out, '*.entry.json'))):
    e = json.load(open(entry))
    if os.path.exists(os.path.join(out, e['file'])):
        graphs[e['file'].removesuffix('.pcgraph.gz')] = e
print(json.dumps({'graphs': graphs}, indent=1))
EOF
mv "$tmp/index.json" "$out/index.json"
say "$out/index.json: $(python3 -c 'import json,sys; print(", ".join(json.load(open(sys.argv[1]))["graphs"]))' "$out/index.json")"
