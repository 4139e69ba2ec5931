#!/bin/bash
# usage: run_path.sh NAME sfinder-path-args...   (adds -f csv -k none -th 1 -o/-lp)
name=$1; shift
d=/work/sfinder-build/out/path/$name
rm -rf $d; mkdir -p $d
printf '%s\n' "$@" > $d/args.txt
/usr/bin/time -v -o $d/time.txt taskset -c 1 /work/sfinder-build/sfinder path "$@" -f csv -k none -th 1 -o $d/path.csv -lp $d/log.txt > $d/stdout.txt 2> $d/stderr.txt
echo "rc=$?" >> $d/time.txt
u=$(grep "User time" $d/time.txt | awk '{print $NF}'); s=$(grep "System time" $d/time.txt | awk '{print $NF}')
w=$(grep "Elapsed (wall" $d/time.txt | awk '{print $NF}'); m=$(grep "Maximum resident" $d/time.txt | awk '{print $NF}')
un=$(grep -o 'Found path \[unique\] = [0-9]*' $d/log.txt | awk '{print $NF}'); mn=$(grep -o 'Found path \[minimal\] = [0-9]*' $d/log.txt | awk '{print $NF}')
echo "$name unique=$un minimal=$mn user=$u sys=$s wall=$w rss_kb=$m $(tail -1 $d/time.txt)"
