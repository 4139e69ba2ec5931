import csv, os, re, shutil, sys
OUT = '/work/sfinder-build/out/path'
DST = '/work/wt-sfinder/testdata/sfinder/path'
names = sys.argv[1:]
os.makedirs(DST, exist_ok=True)
def opt(args, flag, default):
    return args[args.index(flag) + 1] if flag in args else default
def tm(path):
    t = open(path).read()
    g = lambda k: re.search(re.escape(k) + r'.*?: (\S+)', t).group(1)
    wall = g('Elapsed (wall clock) time (h:mm:ss or m:ss)')
    parts = [float(p) for p in wall.split(':')]
    w = 0.0
    for p in parts: w = w * 60 + p
    return float(g('User time (seconds)')), float(g('System time (seconds)')), w, int(g('Maximum resident set size (kbytes)'))
cases, timings = [], []
for n in names:
    d = f'{OUT}/{n}'
    args = open(f'{d}/args.txt').read().split('\n')[:-1]
    log = open(f'{d}/log.txt').read()
    u = int(re.search(r'Found path \[unique\] = (\d+)', log).group(1))
    m = int(re.search(r'Found path \[minimal\] = (\d+)', log).group(1))
    need = int(re.search(r'Need Pieces = (\d+)', log).group(1))
    pop = int(re.search(r'Piece pop count = (\d+)', log).group(1))
    search_ms = int(re.findall(r'Stopwatch stop : avg.time = (\d+) ms', log)[1])
    full = ['path'] + args + ['-f', 'csv', '-k', 'none', '-th', '1']
    cases.append([n, opt(args, '-t', ''), opt(args, '-p', ''), opt(args, '-c', '4'), opt(args, '-H', 'use'),
                  opt(args, '-d', 'softdrop'), opt(args, '-K', 'srs'), need, pop, u, m, ' '.join(full)])
    us, sy, w, rss = tm(f'{d}/time.txt')
    timings.append([n, f'{us:.2f}', f'{sy:.2f}', f'{us+sy:.2f}', f'{w:.2f}', rss, search_ms])
    os.makedirs(f'{DST}/{n}', exist_ok=True)
    for f in ('path_unique.csv', 'path_minimal.csv'):
        shutil.copy(f'{d}/{f}', f'{DST}/{n}/{f}')
with open(f'{DST}/cases.csv', 'w', newline='') as f:
    w = csv.writer(f, lineterminator='\n')
    w.writerow(['name', 'fumen', 'pattern', 'clear_line', 'hold', 'drop', 'kicks', 'need_pieces', 'pop_count', 'unique', 'minimal', 'command'])
    w.writerows(cases)
with open(f'{DST}/timings.csv', 'w', newline='') as f:
    w = csv.writer(f, lineterminator='\n')
    w.writerow(['name', 'user_s', 'sys_s', 'cpu_s', 'wall_s', 'max_rss_kb', 'sfinder_search_ms'])
    w.writerows(timings)
print(open(f'{DST}/cases.csv').read()); print(open(f'{DST}/timings.csv').read())
