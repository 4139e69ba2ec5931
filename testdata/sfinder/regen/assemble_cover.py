import csv, os, re, shutil, sys
OUT = '/work/sfinder-build/out/cover'
DST = '/work/wt-sfinder/testdata/sfinder/cover'
names = sys.argv[1:]
os.makedirs(DST, exist_ok=True)
def tm(path):
    t = open(path).read()
    g = lambda k: re.search(re.escape(k) + r'.*?: (\S+)', t).group(1)
    w = 0.0
    for p in g('Elapsed (wall clock) time (h:mm:ss or m:ss)').split(':'): w = w * 60 + float(p)
    return float(g('User time (seconds)')), float(g('System time (seconds)')), w, int(g('Maximum resident set size (kbytes)'))
txt, timings = [], []
for n in names:
    d = f'{OUT}/{n}'
    args = open(f'{d}/args.txt').read().split('\n')[:-1]
    out = open(f'{d}/stdout.txt').read()
    size = re.search(r'^Searching pattern size \( no dup\. \) = \d+$', out, re.M).group(0)
    res = out[out.index('success:\n'):]
    assert res.rstrip('\n').split('\n')[-1].startswith('AND')
    txt.append(f'## {n}\ncommand: cover {" ".join(args)}\n{size}\n{res}')
    us, sy, w, rss = tm(f'{d}/time.txt')
    ms = int(re.search(r'Stopwatch stop : avg.time = (\d+) ms', out).group(1))
    timings.append([n, f'{us:.2f}', f'{sy:.2f}', f'{us+sy:.2f}', f'{w:.2f}', rss, ms])
    os.makedirs(f'{DST}/{n}', exist_ok=True)
    shutil.copy(f'{d}/cover.csv', f'{DST}/{n}/cover.csv')
open(f'{DST}/cases.txt', 'w').write('\n'.join(txt))
with open(f'{DST}/timings.csv', 'w', newline='') as f:
    w = csv.writer(f, lineterminator='\n')
    w.writerow(['name', 'user_s', 'sys_s', 'cpu_s', 'wall_s', 'max_rss_kb', 'sfinder_calc_ms'])
    w.writerows(timings)
print(open(f'{DST}/timings.csv').read())
