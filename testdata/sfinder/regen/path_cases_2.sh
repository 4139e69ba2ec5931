#!/bin/bash
cd /work/sfinder-build
R="timeout 900 ./run_path.sh"
$R six_line_ZI_p5  -t v115@pgE8CeF8BeG8EeB8HeC8DeF8BeG8JeAgH -p 'Z,I,*p5' -c 6
$R two_line_b_p4   -t v115@RhA8FeE8FeB8JeAgH -p '*p4' -c 2
$R three_line_p7   -t v115@HhA8HeA8JeC8FeA8JeAgH -p '*p7' -c 3
$R avoid_f6_p7     -t v115@9gA8HeF8DeA8FeD8FeD8JeAgH -p '*p7' -c 4 -H avoid
$R harddrop_left3_p7 -t v115@9gC8GeC8GeC8GeC8QeAgH -p '*p7' -c 4 -d harddrop
$R rot180_f7_p7    -t v115@9gC8EeB8HeC8HeA8GeC8JeAgH -p '*p7' -c 4 -d 180 -K kicks/jstris180.properties
$R rot180_pco_I_p4 -t v115@BhF8DeG8CeF8EeE8JeAgH -p 'I,*p4' -c 4 -d 180 -K kicks/jstris180.properties
# six_line_p7p2 (-t v115@pgA8GeB8FeF8DeG8DeF8FeE8EeA8JeAgH -p "*p7,*p2" -c 6) was stopped after 257 s CPU, 757 MB RSS: not stored
$R six_line_OJ_p5  -t v115@pgC8DeD8FeE8EeR8DeE8EeA8JeAgH -p "O,J,*p5" -c 6
$R pco_I_p3        -t v115@BhF8DeG8CeF8EeE8JeAgH -p 'I,*p3' -c 4
