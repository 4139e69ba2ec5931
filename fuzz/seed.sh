#!/usr/bin/env bash
# Fills fuzz/corpus/TARGET with a few valid inputs to start from (the corpora are not kept
# in git): fumens of sfinder's percent tables, patterns users write, board diagrams, a TBP
# game. Run from anywhere; adds files, removes none.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
corpus="$here/corpus"
mkdir -p "$corpus"/{fumen_decode,pattern_parse,board_text,graph_bytes,tbp_lines}

n=0
for table in "$here"/../testdata/sfinder/percent/*.csv; do
    grep -o 'v115@[A-Za-z0-9+/?]*' "$table" | awk 'NR % 40 == 1' | while read -r fumen; do
        printf '%s' "$fumen" > "$corpus/fumen_decode/seed-$(basename "$table" .csv)-$((n++))"
    done
done

i=0
for pattern in '*p7,*p4' '[^TI]p2' 'I,*p4' 'T,*p3' '[SZLJ]p2,*!' '*,*,[IOSL]!' \
    $'I, [^I]p3 # a comment' $'*p4\n[TSZ]p3,*' '  L , J , [ ^ O ] p 2 '; do
    printf '%s' "$pattern" > "$corpus/pattern_parse/seed-$((i++))"
done

i=0
for board in '##.....###/###....###/####...###/###....###' $'#.........\n..########' \
    'IO.....LLL/TTS....ZZZ' '' $'  ..........\n  #########.  \n'; do
    printf '%s' "$board" > "$corpus/board_text/seed-$((i++))"
done

# graph_bytes: mode 1 and 2 change a valid graph made by the target itself.
printf '\x01\x10\x00\x01' > "$corpus/graph_bytes/seed-changed"
printf '\x02\x40\x01\x01' > "$corpus/graph_bytes/seed-resealed"
printf '\x00PCGRAPH\x00\x03\x00\x00\x00' > "$corpus/graph_bytes/seed-raw"

row="[$(printf 'null,%.0s' {1..9})null]"
board="[$(for _ in $(seq 39); do printf '%s,' "$row"; done)$row]"
{
    printf '\x00'
    echo '{"type":"rules","randomizer":"seven_bag"}'
    echo "{\"type\":\"start\",\"hold\":null,\"queue\":[\"T\",\"I\",\"O\",\"L\",\"J\",\"S\"],\"combo\":0,\"back_to_back\":false,\"board\":$board,\"randomizer\":{\"type\":\"seven_bag\",\"bag_state\":[\"Z\"]}}"
    echo '{"type":"suggest"}'
    echo '{"type":"play","move":{"location":{"type":"T","orientation":"north","x":4,"y":0},"spin":"none"}}'
    echo '{"type":"new_piece","piece":"Z"}'
    echo '{"type":"suggest"}'
    echo '{"type":"stop"}'
} > "$corpus/tbp_lines/seed-game"
printf '\x01{"type":"suggest"}\n{"type":"new_piece","piece":"T"}\n' > "$corpus/tbp_lines/seed-started"
echo "corpora seeded in $corpus"
