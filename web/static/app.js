// The page: the position editor, the link in the address bar, the solver worker, the
// ranking and the best line. Rust (web/src/api.rs) reads and checks every input; this file
// only gathers them and draws the answers.
import { compileModule, Pc } from './pc.js';

const PIECES = ['I', 'O', 'T', 'S', 'Z', 'J', 'L'];
const ROWS = 8;
const COLS = 10;
// Spawn-orientation cells [x, y] (y up) for the piece icons.
const SHAPES = {
  I: [[0, 0], [1, 0], [2, 0], [3, 0]],
  O: [[0, 0], [1, 0], [0, 1], [1, 1]],
  T: [[0, 0], [1, 0], [2, 0], [1, 1]],
  S: [[0, 0], [1, 0], [1, 1], [2, 1]],
  Z: [[1, 0], [2, 0], [0, 1], [1, 1]],
  J: [[0, 0], [1, 0], [2, 0], [0, 1]],
  L: [[0, 0], [1, 0], [2, 0], [2, 1]],
};
const KEY_NAMES = {
  L: ['←', 'left'], R: ['→', 'right'], cw: ['↻', 'rotate clockwise'], ccw: ['↺', 'rotate counter-clockwise'],
  180: ['180', 'rotate 180°'], d: ['↓', 'soft drop one row'], sd: ['⇊', 'soft drop to the bottom'], hd: ['⤓', 'hard drop'],
};
const DEFAULT_FORM = {
  field: '##......../##......../##......../##........',
  clear_line: 4, hold: 'O', queue: 'TSZILJ', bag: 'IOSTZ', kicks: 'srs', two_line: false,
};

const $ = (id) => document.getElementById(id);
const el = (tag, attrs = {}, ...children) => {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === 'class') node.className = v;
    else if (k === 'dataset') Object.assign(node.dataset, v);
    else if (k.startsWith('on')) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v);
  }
  node.append(...children);
  return node;
};

// --- state ----------------------------------------------------------------------------------
const state = {
  cells: Array.from({ length: ROWS }, () => Array(COLS).fill(false)), // [y][x], y = 0 at the bottom
  clearLine: 4,
  hold: '',
  bag: new Set(),
  answer: null, // the last solve's answer
  selected: 0, // the move drawn on the field
  page: 0, // the best line's page
};
let pc = null; // the page's own instance, for quick requests
let wasm = null; // the compiled module, handed to each worker
let worker = null;
let workerReady = false;
let job = null; // {id, form, started, timer}
let nextId = 1;

function setPageState(s) {
  document.body.dataset.state = s;
}

// --- the form -------------------------------------------------------------------------------
function fieldText() {
  let top = -1;
  state.cells.forEach((row, y) => { if (row.some(Boolean)) top = y; });
  const rows = [];
  for (let y = Math.max(top, 0); y >= 0; y--) rows.push(state.cells[y].map((c) => (c ? '#' : '.')).join(''));
  return rows.join('/');
}

function currentForm() {
  return {
    field: fieldText(),
    clear_line: state.clearLine,
    hold: state.hold,
    queue: $('queue').value,
    bag: PIECES.filter((p) => state.bag.has(p)).join(''),
    kicks: $('kicks').value,
    two_line: $('two-line').checked,
  };
}

function setForm(form) {
  const rows = form.field ? form.field.split('/').filter((r) => r.trim() !== '') : [];
  state.cells = Array.from({ length: ROWS }, () => Array(COLS).fill(false));
  rows.forEach((row, i) => {
    const y = rows.length - 1 - i;
    if (y >= ROWS) return;
    [...row.trim()].forEach((ch, x) => { if (x < COLS) state.cells[y][x] = ch !== '.' && ch !== '_'; });
  });
  state.clearLine = form.clear_line;
  $('clear-line').value = String(form.clear_line);
  state.hold = (form.hold || '').toUpperCase();
  $('queue').value = (form.queue || '').toUpperCase();
  state.bag = new Set([...(form.bag || '').toUpperCase()].filter((c) => PIECES.includes(c)));
  if ([...$('kicks').options].some((o) => o.value === form.kicks)) $('kicks').value = form.kicks;
  $('two-line').checked = !!form.two_line;
  drawInputs();
}

// --- drawing --------------------------------------------------------------------------------
function pieceIcon(piece, size = 12) {
  const svgNS = 'http://www.w3.org/2000/svg';
  const svg = document.createElementNS(svgNS, 'svg');
  const w = piece === 'I' ? 4 : piece === 'O' ? 2 : 3;
  const h = piece === 'I' ? 1 : 2;
  svg.setAttribute('viewBox', `0 0 ${w * 10} ${h * 10}`);
  svg.setAttribute('width', w * size);
  svg.setAttribute('height', h * size);
  svg.classList.add('icon');
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

function buildBoard(board, rows, editable) {
  board.replaceChildren();
  board.style.setProperty('--rows', rows);
  for (let y = rows - 1; y >= 0; y--) {
    for (let x = 0; x < COLS; x++) {
      board.append(el('div', { class: 'cell', dataset: { x, y }, role: editable ? 'gridcell' : 'presentation' }));
    }
  }
}

function cellOf(board, x, y) {
  return board.children[(board.style.getPropertyValue('--rows') - 1 - y) * COLS + x];
}

/** Colours a board: `fill(x, y)` gives '' (empty), a piece letter, or 'X' (gray). */
function paintBoard(board, rows, fill, overlay, clearLine) {
  for (let y = 0; y < rows; y++) {
    for (let x = 0; x < COLS; x++) {
      const cell = cellOf(board, x, y);
      const kind = fill(x, y);
      cell.className = 'cell';
      if (kind) cell.classList.add('filled', `p-${kind}`);
      if (clearLine !== undefined && y >= clearLine) {
        cell.classList.add('above');
        if (kind) cell.classList.add('bad');
      }
    }
  }
  if (overlay) {
    for (const [x, y] of overlay.cells) {
      if (y < rows) cellOf(board, x, y).classList.add('ghost', `p-${overlay.piece}`);
    }
  }
  board.style.setProperty('--clear', clearLine ?? rows);
}

function drawField() {
  const move = state.answer && !state.answer.stale ? state.answer.moves[state.selected] : null;
  paintBoard($('board'), ROWS, (x, y) => (state.cells[y][x] ? 'X' : ''), move, state.clearLine);
  $('board-note').textContent = move
    ? `Shown: move ${state.selected + 1}, ${move.piece} ${move.orientation}${move.hold ? ' with hold' : ''}, ${move.chance.fraction}`
    : 'Click or drag to fill cells; the red line is the clear line.';
}

function drawPieces() {
  $('hold-box').replaceChildren(...(state.hold ? [pieceIcon(state.hold, 13)] : []));
  const queue = [...$('queue').value.toUpperCase()].filter((c) => PIECES.includes(c));
  $('current-box').replaceChildren(...(queue.length ? [pieceIcon(queue[0], 13)] : []));
  $('preview-box').replaceChildren(...queue.slice(1).map((p) => el('span', { class: 'box mini' }, pieceIcon(p, 9))));
  for (const b of $('hold').children) b.setAttribute('aria-pressed', String(b.dataset.piece === state.hold));
  for (const b of $('bag').children) b.setAttribute('aria-pressed', String(state.bag.has(b.dataset.piece)));
  const left = state.bag.size;
  $('bag-text').textContent = left === 0 || left === 7 ? 'a fresh bag follows the queue' : `${left} of this bag still to come`;
}

function drawInputs() {
  drawField();
  drawPieces();
}

function keysView(keys) {
  const span = el('span', { class: 'keys', dataset: { keys: keys ?? '' } });
  if (!keys) {
    span.textContent = '—';
    return span;
  }
  for (const k of keys.split(' ')) {
    const [glyph, name] = KEY_NAMES[k] ?? [k, k];
    span.append(el('kbd', { title: name }, glyph));
  }
  return span;
}

function drawAnswer() {
  const a = state.answer;
  const tbody = $('moves').querySelector('tbody');
  tbody.replaceChildren();
  $('result-panel').classList.toggle('stale', !!(a && a.stale));
  $('result-panel').classList.toggle('empty', !a);
  if (!a) {
    $('chance').textContent = '';
    $('percent').textContent = '';
    $('hold-first').hidden = true;
    $('line-panel').hidden = true;
    return;
  }
  $('chance').textContent = a.chance.fraction;
  $('percent').textContent = `${formatPercent(a.chance.percent)}`;
  $('chance').className = a.chance.numer === 0 ? 'zero' : a.chance.numer === a.chance.denom ? 'one' : '';
  if (a.hold_first) {
    const better = a.moves.length === 0 || a.hold_first.numer * a.moves[0].chance.denom > a.moves[0].chance.numer * a.hold_first.denom;
    $('hold-first').hidden = false;
    $('hold-first').textContent = `Hold first (the slot is empty), then place once the next piece shows: ${a.hold_first.fraction} = ${formatPercent(a.hold_first.percent)}${better ? ' — the best choice' : ''}.`;
  } else {
    $('hold-first').hidden = true;
  }
  a.moves.forEach((m, i) => {
    const row = el('tr', {
      class: i === state.selected ? 'selected' : '',
      tabindex: 0,
      dataset: {
        index: i, piece: m.piece, orientation: m.orientation, hold: m.hold, cells: JSON.stringify(m.cells), chance: m.chance.fraction,
      },
      onclick: () => selectMove(i),
      onkeydown: (e) => { if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); selectMove(i); } },
    },
    el('td', { class: 'rank' }, String(i + 1)),
    el('td', { class: 'piece' }, pieceIcon(m.piece, 8), ` ${m.piece}`),
    el('td', {}, m.orientation),
    el('td', {}, m.hold ? 'hold' : ''),
    el('td', { class: 'num fraction' }, m.chance.fraction),
    el('td', { class: 'num' }, el('span', { class: 'bar', style: `--p:${m.chance.percent}%` }), formatPercent(m.chance.percent)),
    el('td', {}, keysView(m.keys)),
    el('td', {}, m.carry ?? ''));
    tbody.append(row);
  });
  drawLine();
}

function formatPercent(p) {
  if (p === 100 || p === 0) return `${p}%`;
  return `${p.toFixed(2)}%`;
}

function selectMove(i) {
  state.selected = i;
  for (const row of $('moves').querySelectorAll('tbody tr')) row.classList.toggle('selected', Number(row.dataset.index) === i);
  drawField();
}

function drawLine() {
  const a = state.answer;
  const line = a && a.line;
  $('line-panel').hidden = !line;
  if (!line) return;
  const pages = line.pages;
  state.page = Math.min(state.page, pages.length - 1);
  const page = pages[state.page];
  const board = $('line-board');
  if (board.children.length !== page.rows.length * COLS) buildBoard(board, page.rows.length, false);
  const rows = page.rows.length;
  paintBoard(board, rows, (x, y) => {
    const ch = page.rows[rows - 1 - y][x];
    return ch === '.' ? '' : ch;
  }, page.piece);
  $('line-page').textContent = `${state.page + 1} / ${pages.length}`;
  $('line-text').textContent = page.piece
    ? `${state.page + 1}. ${page.piece.piece} ${page.piece.orientation}${state.page === 0 ? ' (the best move)' : ''}`
    : 'Perfect clear.';
  $('line-prev').disabled = state.page === 0;
  $('line-next').disabled = state.page === pages.length - 1;
  $('line-link').href = line.url;
  $('line-fumen').value = line.fumen;
}

// --- messages ---------------------------------------------------------------------------------
function showError(message, input) {
  $('error').hidden = false;
  $('error').textContent = message;
  document.querySelectorAll('[data-input].invalid').forEach((n) => n.classList.remove('invalid'));
  const target = document.querySelector(`[data-input="${input}"]`);
  if (target) target.classList.add('invalid');
  if (input === 'field') $('board').classList.add('invalid');
}

function clearError() {
  $('error').hidden = true;
  $('error').textContent = '';
  document.querySelectorAll('.invalid').forEach((n) => n.classList.remove('invalid'));
}

function setStatus(text) {
  $('status').textContent = text;
}

function changed() {
  clearError();
  if (state.answer && !state.answer.stale) {
    state.answer.stale = true;
    $('summary').textContent = 'The position changed: press Solve for its moves.';
    $('result-panel').classList.add('stale');
  }
  drawInputs();
}

// --- the worker -------------------------------------------------------------------------------
function startWorker() {
  worker = new Worker(new URL('worker.js', import.meta.url), { type: 'module' });
  workerReady = false;
  worker.onmessage = ({ data }) => {
    if (data.type === 'ready') workerReady = true;
    else if (data.type === 'failed') failJob(`the solver could not start: ${data.error}`);
    else if (data.type === 'answer') finishJob(data);
  };
  worker.onerror = (e) => {
    e.preventDefault();
    failJob(`the solver failed: ${e.message || 'worker error'}`);
    restartWorker();
  };
  worker.postMessage({ type: 'init', module: wasm });
}

function restartWorker() {
  if (worker) worker.terminate();
  startWorker();
}

function solve() {
  if (!pc) return;
  if (job) cancel();
  clearError();
  const form = currentForm();
  const checked = pc.call({ op: 'check', form });
  if (!checked.ok) {
    showError(checked.error, checked.input);
    setStatus('');
    setPageState('error');
    return;
  }
  showLink(checked.query);
  const id = nextId++;
  job = { id, started: performance.now(), timer: 0 };
  job.timer = setInterval(tick, 100);
  tick();
  $('solve').disabled = true;
  $('cancel').hidden = false;
  document.body.classList.add('busy');
  setPageState('solving');
  worker.postMessage({ type: 'solve', id, form: checked.form });
}

function tick() {
  if (!job) return;
  const s = (performance.now() - job.started) / 1000;
  setStatus(`Solving… ${s.toFixed(1)} s`);
}

function endJob() {
  clearInterval(job.timer);
  const elapsed = performance.now() - job.started;
  job = null;
  $('solve').disabled = false;
  $('cancel').hidden = true;
  document.body.classList.remove('busy');
  return elapsed;
}

function finishJob({ id, answer, ms, memory, broken }) {
  if (!job || job.id !== id) return;
  endJob();
  if (broken) restartWorker();
  if (!answer.ok) {
    showError(answer.error, answer.input);
    setStatus('');
    setPageState('error');
    return;
  }
  state.answer = answer;
  state.selected = 0;
  state.page = 0;
  $('status').dataset.ms = ms.toFixed(1);
  $('status').dataset.memory = memory;
  setStatus(`Solved in ${formatSeconds(ms)}`);
  const n = answer.moves.length;
  $('summary').textContent = n
    ? `with best play: ${n} move${n === 1 ? '' : 's'} ranked in ${formatSeconds(ms)}. Choose one to see it on the field.`
    : 'No piece can be placed.';
  drawAnswer();
  drawField();
  setPageState('done');
}

function failJob(message) {
  if (job) endJob();
  showError(message, 'position');
  setStatus('');
  setPageState('error');
}

function cancel() {
  if (!job) return;
  const elapsed = endJob();
  // A worker in the middle of a wasm call cannot be interrupted: stop it, start another.
  restartWorker();
  setStatus(`Cancelled after ${formatSeconds(elapsed)}`);
  setPageState('cancelled');
}

function formatSeconds(ms) {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(2)} s`;
}

// --- links ------------------------------------------------------------------------------------
function showLink(query, inAddressBar = true) {
  $('share').value = `${location.origin}${location.pathname}?${query}`;
  if (inAddressBar) history.replaceState(null, '', `?${query}`);
}

/** The query as written, fragment included: a field with a raw '#' puts the rest there. */
function rawQuery() {
  const href = location.href;
  const i = href.indexOf('?');
  return i < 0 ? '' : href.slice(i + 1);
}

// --- inputs -----------------------------------------------------------------------------------
function setupInputs() {
  const board = $('board');
  buildBoard(board, ROWS, true);
  let paint = null; // true: filling, false: emptying
  const at = (e) => {
    const target = document.elementFromPoint(e.clientX, e.clientY);
    return target && target.classList.contains('cell') && board.contains(target) ? target : null;
  };
  const apply = (cell) => {
    const x = Number(cell.dataset.x);
    const y = Number(cell.dataset.y);
    if (state.cells[y][x] !== paint) {
      state.cells[y][x] = paint;
      changed();
    }
  };
  board.addEventListener('pointerdown', (e) => {
    const cell = at(e);
    if (!cell) return;
    e.preventDefault();
    if (e.target.hasPointerCapture?.(e.pointerId)) e.target.releasePointerCapture(e.pointerId);
    paint = !state.cells[Number(cell.dataset.y)][Number(cell.dataset.x)];
    apply(cell);
  });
  board.addEventListener('pointermove', (e) => {
    if (paint === null) return;
    const cell = at(e);
    if (cell) apply(cell);
  });
  window.addEventListener('pointerup', () => { paint = null; });
  window.addEventListener('pointercancel', () => { paint = null; });

  for (const p of ['', ...PIECES]) {
    $('hold').append(el('button', {
      type: 'button', class: `piece-button ${p ? `p-${p}` : 'none'}`, dataset: { piece: p }, title: p ? `Hold ${p}` : 'Nothing held',
      onclick: () => { state.hold = p; changed(); },
    }, p || '–'));
  }
  for (const p of PIECES) {
    $('bag').append(el('button', {
      type: 'button', class: `piece-button p-${p}`, dataset: { piece: p }, title: `${p} still to come in this bag`,
      onclick: () => { if (state.bag.has(p)) state.bag.delete(p); else state.bag.add(p); changed(); },
    }, p));
  }
  $('bag-fresh').addEventListener('click', () => { state.bag.clear(); changed(); });
  for (let c = 1; c <= ROWS; c++) $('clear-line').append(el('option', { value: c }, String(c)));
  $('clear-line').value = String(state.clearLine);
  $('clear-line').addEventListener('change', () => { state.clearLine = Number($('clear-line').value); changed(); });
  $('queue').addEventListener('input', () => {
    const q = $('queue');
    const pos = q.selectionStart;
    q.value = q.value.toUpperCase();
    q.setSelectionRange(pos, pos);
    changed();
  });
  $('queue').addEventListener('keydown', (e) => { if (e.key === 'Enter') solve(); });
  $('kicks').addEventListener('change', changed);
  $('two-line').addEventListener('change', changed);
  $('field-clear').addEventListener('click', () => {
    state.cells = Array.from({ length: ROWS }, () => Array(COLS).fill(false));
    changed();
  });
  const loadFumen = () => {
    const text = $('fumen-input').value.trim();
    if (!text || !pc) return;
    const answer = pc.call({ op: 'fumen', fumen: text });
    if (!answer.ok) {
      showError(answer.error, answer.input);
      setPageState('error');
      return;
    }
    const clearLine = Math.max(state.clearLine, answer.height);
    setForm({ ...currentForm(), field: answer.field, clear_line: Math.min(clearLine, ROWS) });
    changed();
  };
  $('fumen-load').addEventListener('click', loadFumen);
  $('fumen-input').addEventListener('keydown', (e) => { if (e.key === 'Enter') loadFumen(); });
  $('solve').addEventListener('click', solve);
  $('cancel').addEventListener('click', cancel);
  $('line-prev').addEventListener('click', () => { state.page -= 1; drawLine(); });
  $('line-next').addEventListener('click', () => { state.page += 1; drawLine(); });
  $('share-copy').addEventListener('click', () => copy($('share')));
  $('line-fumen').addEventListener('focus', (e) => e.target.select());
  $('share').addEventListener('focus', (e) => e.target.select());
}

function copy(input) {
  input.select();
  navigator.clipboard?.writeText(input.value).catch(() => document.execCommand('copy'));
}

// --- start ------------------------------------------------------------------------------------
async function main() {
  setupInputs();
  setForm(DEFAULT_FORM);
  try {
    const compiled = await compileModule();
    wasm = compiled.module;
    pc = await Pc.create(wasm);
    const loadMs = performance.now();
    const kB = compiled.size ? ` (${(compiled.size / 1024).toFixed(0)} kB of WebAssembly)` : '';
    $('load-info').textContent = `Solver loaded in ${Math.round(loadMs)} ms${kB}`;
    $('load-info').dataset.ms = loadMs.toFixed(1);
    $('load-info').dataset.bytes = compiled.size;
  } catch (err) {
    showError(`The solver could not be loaded: ${err.message}`, 'position');
    setPageState('error');
    $('solve').disabled = true;
    return;
  }
  startWorker();
  setPageState('ready');
  const query = rawQuery();
  if (!query) {
    showLink(pc.call({ op: 'check', form: currentForm() }).query ?? '', false);
    return;
  }
  const read = pc.call({ op: 'query', query });
  if (!read.ok) {
    showError(read.error, read.input);
    setPageState('error');
    return;
  }
  // Check the link's own values (an unknown kick table is not in the menu to show).
  const checked = pc.call({ op: 'check', form: read.form });
  setForm(checked.ok ? checked.form : read.form);
  if (!checked.ok) {
    showError(checked.error, checked.input);
    setPageState('error');
  } else if (read.solve) {
    solve();
  }
}

main();
