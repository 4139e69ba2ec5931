#!/bin/bash
d=/work/sfinder-build/out/empty
/usr/bin/time -v -o $d/time.txt nice timeout 1500 taskset -c 1 /work/sfinder-build/sfinder path -t v115@vhAAgH -p '*p7,*p4' -c 4 -f csv -k none -th 1 -o $d/path.csv -lp $d/log.txt > $d/stdout.txt 2> $d/stderr.txt
echo "rc=$?" >> $d/time.txt
