#!/bin/bash
cd /work/sfinder-build
# Setups for the cover cases: sfinder path with -f csv -k solution -s yes writes one multi-page fumen
# (one page per piece, lock flag on) per solution; cover_cases.sh uses the first 1-4 data rows of these.
mkdir -p out/setups
g() { n=$1; shift; taskset -c 1 ./sfinder path "$@" -f csv -k solution -s yes -L 2 -th 1 -o /work/sfinder-build/out/setups/$n.csv -lp /work/sfinder-build/out/setups/$n.log > /dev/null 2>&1; echo "$n rc=$?"; }
g pco -t v115@BhF8DeG8CeF8EeE8JeAgH -p 'I,*p4' -c 4
g left3 -t v115@9gC8GeC8GeC8GeC8QeAgH -p '*p7' -c 4
g f7r180 -t v115@9gC8EeB8HeC8HeA8GeC8JeAgH -p '*p7' -c 4 -d 180 -K kicks/jstris180.properties
g six -t v115@pgE8CeF8BeG8EeB8HeC8DeF8BeG8JeAgH -p 'Z,I,*p5' -c 6
g three -t v115@HhA8HeA8JeC8FeA8JeAgH -p '*p7' -c 3
