# Replays every line of the stored path csvs with the conventions written in testdata/README.md.
import csv, sys, re, os
sys.path.insert(0, '/work/sfinder-build/gen'); import fumen
BASE = {'T': [(0,0),(-1,0),(1,0),(0,1)], 'I': [(0,0),(-1,0),(1,0),(2,0)], 'L': [(0,0),(-1,0),(1,0),(1,1)],
        'J': [(0,0),(-1,0),(1,0),(-1,1)], 'S': [(0,0),(-1,0),(0,1),(1,1)], 'Z': [(0,0),(1,0),(0,1),(-1,1)], 'O': [(0,0),(1,0),(0,1),(1,1)]}
ROT = {'0': lambda x,y:(x,y), 'R': lambda x,y:(y,-x), '2': lambda x,y:(-x,-y), 'L': lambda x,y:(-y,x)}
def cells(p, r, x, y): return [(x+a, y+b) for a,b in (ROT[r](*o) for o in BASE[p])]
D = '/work/wt-sfinder/testdata/sfinder/path'
rots = set()
for c in csv.DictReader(open(f'{D}/cases.csv')):
    h = int(c['clear_line'])
    rows0 = fumen.decode(c['fumen'])
    for kind in ('unique', 'minimal'):
        for line in open(f"{D}/{c['name']}/path_{kind}.csv").read().split('\n')[:-1]:
            rows = [list(r) for r in reversed(rows0)]  # rows[y]
            rows = [rw for rw in rows[:h] if '_' in rw]
            while len(rows) < h: rows.append(list('_'*10))
            for op in line.split(';'):
                p, r, x, y = op.split(','); x, y = int(x), int(y); rots.add(p+r)
                cs = cells(p, r, x, y)
                assert all(0 <= cx < 10 and 0 <= cy < len(rows) and rows[cy][cx] == '_' for cx, cy in cs), (c['name'], line, op)
                # grounded
                assert any(cy == 0 or rows[cy-1][cx] != '_' for cx, cy in cs), (c['name'], line, op, 'floating')
                for cx, cy in cs: rows[cy][cx] = p
                rows = [rw for rw in rows if '_' in rw]
                while len(rows) < h: rows.append(list('_'*10))
            assert all(all(ch == '_' for ch in rw) for rw in rows), (c['name'], line)
print('all lines replay to a perfect clear; rotations seen:', sorted(rots))
