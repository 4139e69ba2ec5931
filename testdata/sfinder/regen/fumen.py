# Minimal v115 fumen field encoder/decoder (single page, gray cells, no piece, no comment).
B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"

def encode(rows):
    """rows: list of strings top row first, 'X' = block, '_' = empty, width 10; bottom row is y=0."""
    cells = [0] * 240
    h = len(rows)
    for i, r in enumerate(rows):
        y = h - 1 - i
        for x, c in enumerate(r):
            if c != '_':
                cells[(22 - y) * 10 + x] = 8  # gray
    out = ""
    runs = []
    i = 0
    while i < 240:
        j = i
        while j < 240 and cells[j] == cells[i]:
            j += 1
        runs.append((cells[i], j - i))
        i = j
    for v, n in runs:
        num = (v + 8) * 240 + (n - 1)
        out += B64[num % 64] + B64[num // 64]
    if runs == [(0, 240)]:
        out += "A"
    return "v115@" + out + "AgH"

def decode(f):
    s = f.split("@", 1)[1]
    vals = [B64.index(c) for c in s]
    cells = []
    k = 0
    while len(cells) < 240:
        num = vals[k] + vals[k + 1] * 64
        k += 2
        v = num // 240 - 8
        n = num % 240 + 1
        cells += [v] * n
    rows = []
    for y in range(22, -1, -1):
        row = "".join("_" if cells[(22 - y) * 10 + x] == 0 else "X" for x in range(10))
        rows.append(row)
    while rows and rows[0] == "_" * 10:
        rows.pop(0)
    return rows

if __name__ == "__main__":
    import sys
    for a in sys.argv[1:]:
        if a.startswith("v115@"):
            r = decode(a)
            print("\n".join(r)); print(encode(r), encode(r) == a)
        else:
            print(encode(a.split("/")))
