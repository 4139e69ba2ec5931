#!/bin/bash
cd /work/sfinder-build
R="timeout 900 ./run_path.sh"
$R pco_I_p4        -t v115@BhF8DeG8CeF8EeE8JeAgH -p 'I,*p4' -c 4
$R box4x4_p5       -t v115@9gC8DeF8DeF8DeF8DeC8JeAgH -p '*p5' -c 4
$R two_line_p4     -t v115@RhB8FeD8FeB8JeAgH -p '*p4' -c 2
$R three_line_p6   -t v115@NhD8IeE8EeA8JeAgH -p '*p6' -c 3
$R left3_p7        -t v115@9gC8GeC8GeC8GeC8QeAgH -p '*p7' -c 4
$R f7_TI_p6        -t v115@9gC8EeB8HeC8HeA8GeC8JeAgH -p 'T,I,*p6' -c 4
$R f7_p7           -t v115@9gC8EeB8HeC8HeA8GeC8JeAgH -p '*p7' -c 4
$R zero_avoid      -t v115@9gA8GeB8IeA8HeC8HeA8JeAgH -p 'Z,J,I,L,Z,I,J,T' -c 4 -H avoid
$R six_line_p7     -t v115@pgE8CeF8BeG8EeB8HeC8DeF8BeG8JeAgH -p '*p7' -c 6
