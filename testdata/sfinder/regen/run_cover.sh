#!/bin/bash
# usage: run_cover.sh NAME sfinder-cover-args...   (adds -o/-lp)
name=$1; shift
d=/work/sfinder-build/out/cover/$name
rm -rf $d; mkdir -p $d
printf '%s\n' "$@" > $d/args.txt
/usr/bin/time -v -o $d/time.txt taskset -c 1 /work/sfinder-build/sfinder cover "$@" -o $d/cover.csv -lp $d/log.txt > $d/stdout.txt 2> $d/stderr.txt
echo "rc=$?" >> $d/time.txt
u=$(grep "User time" $d/time.txt | awk '{print $NF}'); s=$(grep "System time" $d/time.txt | awk '{print $NF}')
w=$(grep "Elapsed (wall" $d/time.txt | awk '{print $NF}'); m=$(grep "Maximum resident" $d/time.txt | awk '{print $NF}')
echo "$name user=$u sys=$s wall=$w rss_kb=$m $(tail -1 $d/time.txt)"; sed -n '/^success:/,$p' $d/stdout.txt
