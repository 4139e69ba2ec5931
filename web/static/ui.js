// Helpers both modes use: elements, piece icons, boards, keys, exact fractions.

export const PIECES = ['I', 'O', 'T', 'S', 'Z', 'J', 'L'];
export const COLS = 10;

// Spawn-orientation cells [x, y] (y up) for the piece icons only (the game's cells come
// from the module: play.js).
const SHAPES = {
  I: [[0, 0], [1, 0], [2, 0], [3, 0]],
  O: [[0, 0], [1, 0], [0, 1], [1, 1]],
  T: [[0, 0], [1, 0], [2, 0], [1, 1]],
  S: [[0, 0], [1, 0], [1, 1], [2, 1]],
  Z: [[1, 0], [2, 0], [0, 1], [1, 1]],
  J: [[0, 0], [1, 0], [2, 0], [0, 1]],
  L: [[0, 0], [1, 0], [2, 0], [2, 1]],
};

export const KEY_NAMES = {
  L: ['←', 'left'], R: ['→', 'right'], cw: ['↻', 'rotate clockwise'], ccw: ['↺', 'rotate counter-clockwise'],
  180: ['180', 'rotate 180°'], d: ['↓', 'soft drop one row'], sd: ['⇊', 'soft drop to the bottom'], hd: ['⤓', 'hard drop'],
};

export const $ = (id) => document.getElementById(id);

export const el = (tag, attrs = {}, ...children) => {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === 'class') node.className = v;
    else if (k === 'dataset') Object.assign(node.dataset, v);
    else if (k.startsWith('on')) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v === true ? '' : v);
  }
  node.append(...children);
  return node;
};

/** A piece as a small picture; an empty span for anything that is not a piece letter. */
export function pieceIcon(piece, size = 12) {
  if (!SHAPES[piece]) return el('span', { class: 'icon none' });
  const svgNS = 'http://www.w3.org/2000/svg';
  const svg = document.createElementNS(svgNS, 'svg');
  const w = piece === 'I' ? 4 : piece === 'O' ? 2 : 3;
  const h = piece === 'I' ? 1 : 2;
  svg.setAttribute('viewBox', `0 0 ${w * 10} ${h * 10}`);
  svg.setAttribute('width', w * size);
  svg.setAttribute('height', h * size);
  svg.classList.add('icon');
  svg.setAttribute('aria-label', piece);
  for (const [x, y] of SHAPES[piece]) {
    const r = document.createElementNS(svgNS, 'rect');
    r.setAttribute('x', x * 10 + 0.5);
    r.setAttribute('y', (h - 1 - y) * 10 + 0.5);
    r.setAttribute('width', 9);
    r.setAttribute('height', 9);
    r.setAttribute('rx', 1.5);
    r.setAttribute('class', `mino p-${piece}`);
    svg.append(r);
  }
  return svg;
}

/** A board of `rows` rows of 10 cells; with `labels`, row numbers (1 at the bottom) at the left. */
export function buildBoard(board, rows, { editable = false, labels = false } = {}) {
  board.replaceChildren();
  board.style.setProperty('--rows', rows);
  board.classList.toggle('labelled', labels);
  for (let y = rows - 1; y >= 0; y--) {
    if (labels) board.append(el('div', { class: 'row-label', 'aria-hidden': 'true' }, String(y + 1)));
    for (let x = 0; x < COLS; x++) {
      board.append(el('div', { class: 'cell', dataset: { x, y }, role: editable ? 'gridcell' : 'presentation' }));
    }
  }
  board.cells = [...board.querySelectorAll('.cell')];
}

export function cellOf(board, x, y) {
  const rows = Number(board.style.getPropertyValue('--rows'));
  return board.cells[(rows - 1 - y) * COLS + x];
}

/**
 * Colours a board: `fill(x, y)` gives '' (empty), a piece letter, or 'X' (gray); `overlays`
 * are {cells, piece, kind} drawn over it (kind: 'ghost' for a chosen move, 'shadow' for the
 * landing spot, 'outline' for a hint).
 */
export function paintBoard(board, rows, fill, overlays = [], clearLine = undefined) {
  for (let y = 0; y < rows; y++) {
    for (let x = 0; x < COLS; x++) {
      const cell = cellOf(board, x, y);
      const kind = fill(x, y);
      let cls = 'cell';
      if (kind) cls += ` filled p-${kind}`;
      if (clearLine !== undefined && y >= clearLine) {
        cls += ' above';
        if (kind && kind === 'X') cls += ' bad';
      }
      if (cell.className !== cls) cell.className = cls;
    }
  }
  for (const overlay of overlays) {
    if (!overlay) continue;
    for (const [x, y] of overlay.cells) {
      if (y < rows && y >= 0 && x >= 0 && x < COLS) cellOf(board, x, y).classList.add(overlay.kind ?? 'ghost', `p-${overlay.piece}`);
    }
  }
  board.style.setProperty('--clear', clearLine ?? rows);
}

/**
 * Names a table's cells for its form as cards (style.css, up to 560 px wide: a row's cells
 * flow onto lines, the header goes): each cell of a column whose header has
 * `data-card-label` gets the header's text as `data-label`, shown before its value.
 */
export function labelColumns(table) {
  const names = [...table.querySelectorAll('thead th')].map((th) => (th.hasAttribute('data-card-label') ? th.textContent : ''));
  for (const row of table.querySelectorAll('tbody tr')) {
    [...row.cells].forEach((td, i) => {
      if (names[i]) td.dataset.label = names[i];
    });
  }
}

/**
 * Keys (the `recommend` example's notation) as key caps; `data-keys` holds them as text.
 * `cap(step)` gives a step's [glyph, title]: Play mode shows the player's own keys.
 */
export function keysView(keys, cap = (k) => KEY_NAMES[k] ?? [k, k]) {
  const span = el('span', { class: 'keys', dataset: { keys: keys ?? '' } });
  if (!keys) {
    span.textContent = '—';
    return span;
  }
  for (const k of keys.split(' ')) {
    const [glyph, name] = cap(k);
    span.append(el('kbd', { title: name }, glyph));
  }
  return span;
}

export function formatPercent(p) {
  if (p === 100 || p === 0) return `${p}%`;
  return `${p.toFixed(2)}%`;
}

export function formatSeconds(ms) {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(2)} s`;
}

// --- exact fractions (BigInt: chances are fractions of 64-bit integers) -----------------------

const gcd = (a, b) => {
  let x = a < 0n ? -a : a;
  let y = b < 0n ? -b : b;
  while (y) [x, y] = [y, x % y];
  return x;
};

/** "119/120" -> {n: 119n, d: 120n}. */
export function fraction(text) {
  const [n, d] = String(text).split('/');
  return { n: BigInt(n), d: BigInt(d ?? '1') };
}

export function minus(a, b) {
  const n = a.n * b.d - b.n * a.d;
  const d = a.d * b.d;
  const g = gcd(n, d) || 1n;
  return { n: n / g, d: d / g };
}

export function compare(a, b) {
  const l = a.n * b.d;
  const r = b.n * a.d;
  return l < r ? -1 : l > r ? 1 : 0;
}

export function fractionText(f) {
  return f ? `${f.n}/${f.d}` : '?';
}

export function fractionPercent(f) {
  return Number((f.n * 1000000n) / f.d) / 10000;
}

/** Two sets of cells are the same (in any order). */
export function sameCells(a, b) {
  const key = (cells) => cells.map(([x, y]) => `${x},${y}`).sort().join(' ');
  return key(a) === key(b);
}
