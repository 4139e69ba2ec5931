#!/usr/bin/env bash
# Times the page with the full PC graph of SRS in headless Chromium (not a CI test: about
# three minutes with the graph built): the graph downloaded and read on a first visit, then read from the
# browser's cache on --runs reloads (5), each with the first decision of a PC (I held,
# JLOSTZ: 419/420) from it, medians; the first decision of a game in Play mode (the empty
# field, the hold slot empty, LSITJO, Z forced: 69/70) answered in full from the graph on
# --runs reloads, medians and the worker's memory; then Play mode played by keyboard
# following the hints, with the graph and without it: the time from a piece appearing to
# its answer (--no-play: not these games).
# Needs web/dist/graphs/srs-softdrop.pcgraph.zst (web/build-graphs.sh srs makes it).
# Writes target/web-timing/timing.json. Arguments go to web/tests/timing.mjs.
set -euo pipefail

web="$(cd "$(dirname "$0")" && pwd)"
root="$(dirname "$web")"
out="$root/target/web-timing"
say() { echo "web/time-graph.sh: $*" >&2; }

"$web/build.sh"
[ -f "$web/dist/graphs/srs-softdrop.pcgraph.zst" ] || "$web/build-graphs.sh" srs
mkdir -p "$out"
port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
python3 -m http.server "$port" --bind 127.0.0.1 --directory "$web/dist" >"$out/server.log" 2>&1 &
server=$!
trap 'kill "$server" 2>/dev/null || true' EXIT
sleep 0.5
say "machine: $(lscpu | sed -n 's/^Model name: *//p'), $(nproc) cores, $(free -g | awk '/Mem:/ {print $2}') GiB; $(/usr/bin/chromium --version 2>/dev/null | head -1); load $(cut -d' ' -f1-3 /proc/loadavg)"
node "$web/tests/timing.mjs" --url "http://127.0.0.1:$port/" --out "$out" "$@"
say "load after: $(cut -d' ' -f1-3 /proc/loadavg); figures in $out/timing.json"
