#!/bin/bash
# sfinder's `path -k solution` and `-k use` for the cases that store them (path_solution.csv,
# path_use.csv): the case's command from cases.csv with `-k` changed, written to OUT/NAME/.
# usage: run_path_keys.sh OUT
out=$1
cases=/work/main/testdata/sfinder/path/cases.csv
for name in pco_I_p4 pco_I_p3 rot180_pco_I_p4 avoid_f6_p7 zero_avoid two_line_p4 three_line_p6 six_line_ZI_p5; do
  cmd=$(python3 -c "import csv,sys; print(next(r['command'] for r in csv.DictReader(open('$cases')) if r['name']=='$name').replace(' -k none',''))")
  eval "set -- $cmd"
  for k in solution use; do
    mkdir -p $out/$name/$k
    taskset -c 1 /work/sfinder-build/sfinder "$@" -k $k -o $out/$name/$k/path.csv -lp $out/$name/$k/log.txt > /dev/null
    cp $out/$name/$k/path.csv $out/$name/path_$k.csv
  done
done
