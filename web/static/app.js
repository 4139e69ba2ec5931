// The page: analysis mode (the position editor, the ranking, the best line), Play mode
// (play.js), the link in the address bar, the solver worker (solver.js) and the PC graph.
// Rust (web/src/) reads and checks every input; this file gathers them and draws answers.
import { compileModule, Pc } from './pc.js';
import {
  $, el, PIECES, COLS, pieceIcon, buildBoard, cellOf, paintBoard, keysView, formatPercent, formatSeconds, labelColumns,
} from './ui.js';
import { SolverClient } from './solver.js';
import { solutionCards, SolutionStepper } from './solutions.js';
import { Play } from './play.js';
import {
  ACTIONS, DEFAULTS, LIMITS, actionName, bind, keyLabel, loadSettings, saveSettings,
} from './settings.js';

const ROWS = 8;
const DEFAULT_FORM = {
  field: '##......../##......../##......../##........',
  clear_line: 4, hold: 'O', queue: 'TSZILJ', bag: 'IOSTZ', kicks: 'srs', drop: 'softdrop', two_line: false,
};

// --- state ----------------------------------------------------------------------------------
const state = {
  cells: Array.from({ length: ROWS }, () => Array(COLS).fill(false)), // [y][x], y = 0 at the bottom
  clearLine: 4,
  hold: '',
  bag: new Set(),
  answer: null, // the last solve's answer, with `key`: the position it answers
  selected: 0, // the move drawn on the field
  page: 0, // the best line's page
  solutions: null, // the last answer of the solutions of a pattern, with `key`: what it answers
};
let pc = null; // the page's own instance, for quick requests
let solver = null; // the worker
let play = null;
let job = null; // {key, started, timer}
let pathJob = null; // the solutions of a pattern: {key, solKey, started, timer}
let stepper = null; // the solution chosen, page by page
const settings = loadSettings();
const chanceEl = $('chance'); // analysis mode's chance (the id moves with the mode)

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
    drop: $('drop').value,
    two_line: $('two-line').checked,
  };
}

/** What a form asks, as the module reads it back (so that equal positions are equal). */
function formKey(form) {
  const checked = pc ? pc.call({ op: 'check', form }) : { ok: false };
  return JSON.stringify(checked.ok ? checked.form : form);
}

function setForm(form) {
  const rows = form.field ? form.field.split('/').filter((r) => r.trim() !== '') : [];
  state.cells = Array.from({ length: ROWS }, () => Array(COLS).fill(false));
  rows.forEach((row, i) => {
    const y = rows.length - 1 - i;
    if (y >= ROWS) return;
    [...row.trim()].forEach((ch, x) => { if (x < COLS) state.cells[y][x] = ch !== '.' && ch !== '_'; });
  });
  state.clearLine = Math.min(ROWS, Math.max(1, Number(form.clear_line) || 4));
  $('clear-line').value = String(state.clearLine);
  state.hold = PIECES.includes((form.hold || '').toUpperCase()) ? form.hold.toUpperCase() : '';
  $('queue').value = (form.queue || '').toUpperCase();
  state.bag = new Set([...(form.bag || '').toUpperCase()].filter((c) => PIECES.includes(c)));
  if ([...$('kicks').options].some((o) => o.value === form.kicks)) $('kicks').value = form.kicks;
  if ([...$('drop').options].some((o) => o.value === form.drop)) $('drop').value = form.drop;
  $('two-line').checked = !!form.two_line;
  drawInputs();
}

// --- drawing --------------------------------------------------------------------------------
function isStale() {
  return !!state.answer && state.answer.key !== formKey(currentForm());
}

function drawField() {
  const stale = isStale();
  const move = state.answer && !stale ? state.answer.moves[state.selected] : null;
  paintBoard($('board'), ROWS, (x, y) => (state.cells[y][x] ? 'X' : ''), move ? [{ ...move, kind: 'ghost' }] : [], state.clearLine);
  $('board-note').textContent = move
    ? `Shown: move ${state.selected + 1}, ${move.piece} ${move.orientation}${move.hold ? ' with hold' : ''}, ${move.chance.fraction}`
    : 'Click or drag to fill cells; rows count from 1 at the bottom; the red line is the clear line.';
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
  drawStale();
}

/** An answer for another position than the one in the form is marked, never shown as current. */
function drawStale() {
  const stale = isStale();
  $('result-panel').classList.toggle('stale', stale);
  $('result-panel').dataset.stale = String(stale);
  $('stale-note').hidden = !stale;
  $('line-panel').classList.toggle('stale', stale);
  drawSolutionsStale();
}

function drawAnswer() {
  const a = state.answer;
  const tbody = $('moves').querySelector('tbody');
  tbody.replaceChildren();
  $('result-panel').classList.toggle('empty', !a);
  if (!a) {
    chanceEl.textContent = '';
    $('percent').textContent = '';
    $('hold-first').hidden = true;
    $('line-panel').hidden = true;
    drawStale();
    return;
  }
  chanceEl.textContent = a.chance.fraction;
  $('percent').textContent = `${formatPercent(a.chance.percent)}`;
  chanceEl.className = a.chance.numer === 0 ? 'zero' : a.chance.numer === a.chance.denom ? 'one' : '';
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
    el('td', { class: 'keys-cell' }, keysView(m.keys)),
    el('td', { class: 'carry' }, m.carry ?? ''));
    tbody.append(row);
  });
  labelColumns($('moves'));
  drawLine();
  drawStale();
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
  if (board.children.length !== page.rows.length * COLS) buildBoard(board, page.rows.length);
  const rows = page.rows.length;
  paintBoard(board, rows, (x, y) => {
    const ch = page.rows[rows - 1 - y][x];
    return ch === '.' ? '' : ch;
  }, page.piece ? [{ ...page.piece, kind: 'ghost' }] : []);
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
/** Shows messages (one per line) and marks the inputs they are about. */
function showErrors(errors) {
  $('error').hidden = false;
  $('error').replaceChildren(...errors.map((e) => el('div', { class: 'message', dataset: { input: e.input } }, e.error)));
  document.querySelectorAll('[data-input].invalid').forEach((n) => n.classList.remove('invalid'));
  for (const { input } of errors) {
    document.querySelector(`[data-input="${input}"]`)?.classList.add('invalid');
    if (input === 'field') $('board').classList.add('invalid');
  }
}

function showError(message, input) {
  showErrors([{ error: message, input }]);
}

function clearError() {
  $('error').hidden = true;
  $('error').replaceChildren();
  document.querySelectorAll('.invalid').forEach((n) => n.classList.remove('invalid'));
}

function setStatus(text) {
  $('status').textContent = text;
}

function changed() {
  clearError();
  drawInputs();
  if (isStale() && state.answer) {
    $('summary').textContent = 'The position changed: press Solve for its moves.';
  }
  useRules();
}

// --- solving ----------------------------------------------------------------------------------
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
  const key = JSON.stringify(checked.form);
  job = { key: `analysis ${key}`, formKey: key, started: performance.now(), timer: 0 };
  job.timer = setInterval(tick, 100);
  tick();
  $('solve').disabled = true;
  $('cancel').hidden = false;
  document.body.classList.add('busy');
  setPageState('solving');
  const mine = job;
  solver.solve(checked.form, { key: job.key, priority: 3 }).then((result) => {
    if (job !== mine) return;
    finishJob(result);
  }).catch((err) => {
    if (job !== mine || err.cancelled) return;
    failJob(err.message);
  });
}

function tick() {
  if (!job) return;
  const s = (performance.now() - job.started) / 1000;
  setStatus(`Solving… ${s.toFixed(1)} s`);
}

function endJob() {
  clearInterval(job.timer);
  const elapsed = performance.now() - job.started;
  const ended = job;
  job = null;
  $('solve').disabled = false;
  $('cancel').hidden = true;
  document.body.classList.remove('busy');
  return { elapsed, ended };
}

function finishJob({ answer, ms, memory }) {
  const { ended } = endJob();
  if (!answer.ok) {
    showError(answer.error, answer.input);
    setStatus('');
    setPageState('error');
    return;
  }
  state.answer = { ...answer, key: ended.formKey };
  state.selected = 0;
  state.page = 0;
  $('status').dataset.ms = ms.toFixed(1);
  $('status').dataset.memory = memory;
  $('status').dataset.engine = answer.engine;
  setStatus(`Solved in ${formatSeconds(ms)}${answer.engine === 'graph' ? ' from the PC graph' : ''}`);
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
  const { elapsed, ended } = endJob();
  // A worker in the middle of a wasm call cannot be interrupted: stop it, start another.
  solver.cancel(ended.key);
  setStatus(`Cancelled after ${formatSeconds(elapsed)}`);
  setPageState('cancelled');
}

// --- the solutions of a pattern ------------------------------------------------------------
/** What the solutions answer: the field, its rules and the pattern. */
function solutionsKey() {
  const f = currentForm();
  return JSON.stringify({
    field: f.field, clear_line: f.clear_line, kicks: f.kicks, drop: f.drop, pattern: $('pattern').value.trim(),
  });
}

function drawSolutionsStale() {
  const stale = !!state.solutions && state.solutions.key !== solutionsKey();
  $('solutions-panel').classList.toggle('stale', stale);
  $('solutions-panel').dataset.stale = String(stale);
  $('solutions-stale').hidden = !stale;
}

/**
 * Every PC of the field (its clear line, kicks and drop mode, with hold) that a queue of
 * the pattern builds, in the worker: the minimal set as small fields.
 */
function findSolutions({ fromLink = false } = {}) {
  if (!pc) return;
  const pattern = $('pattern').value.trim();
  if (!fromLink) clearError();
  if (!pattern) {
    showError("pattern: give a pattern in sfinder's language (I,*p4, *p7, [SZ]p2,*p4)", 'pattern');
    setPageState('error');
    return;
  }
  if (pathJob) cancelSolutions();
  const key = solutionsKey();
  pathJob = { key: `path ${key}`, solKey: key, started: performance.now(), timer: setInterval(tickSolutions, 100) };
  state.solutions = null;
  $('solutions-panel').hidden = false;
  const box = $('solutions');
  for (const k of ['unique', 'minimal', 'queues', 'covered', 'ms']) delete box.dataset[k];
  box.dataset.state = 'solving';
  box.replaceChildren();
  $('solution-view').hidden = true;
  $('solutions-summary').textContent = '';
  $('solutions-for').textContent = pattern;
  $('solutions-cancel').hidden = false;
  $('solutions-status').classList.add('busy');
  tickSolutions();
  drawSolutionsStale();
  const mine = pathJob;
  solver.solve(currentForm(), { key: mine.key, priority: 3, op: 'path', extra: { pattern } }).then(({ answer, ms }) => {
    if (pathJob !== mine) return;
    endSolutions();
    if (!answer.ok) {
      box.dataset.state = 'error';
      $('solutions-status').textContent = '';
      $('solutions-summary').textContent = answer.error;
      showError(answer.error, answer.input);
      setPageState('error');
      return;
    }
    state.solutions = { ...answer, key: mine.solKey, ms };
    drawSolutions();
  }).catch((err) => {
    if (pathJob !== mine || err.cancelled) return;
    endSolutions();
    box.dataset.state = 'error';
    showError(err.message, 'pattern');
    setPageState('error');
  });
}

function tickSolutions() {
  if (!pathJob) return;
  const s = (performance.now() - pathJob.started) / 1000;
  $('solutions-status').textContent = `Finding the solutions… ${s.toFixed(1)} s`;
}

function endSolutions() {
  clearInterval(pathJob.timer);
  const ended = { ...pathJob, elapsed: performance.now() - pathJob.started };
  pathJob = null;
  $('solutions-cancel').hidden = true;
  $('solutions-status').classList.remove('busy');
  return ended;
}

function cancelSolutions() {
  if (!pathJob) return;
  const ended = endSolutions();
  solver.cancel(ended.key);
  $('solutions').dataset.state = 'cancelled';
  $('solutions-status').textContent = `Cancelled after ${formatSeconds(ended.elapsed)}`;
}

function drawSolutions() {
  const a = state.solutions;
  const box = $('solutions');
  Object.assign(box.dataset, {
    unique: a.unique, minimal: a.minimal.length, queues: a.queues, covered: a.covered, ms: a.ms.toFixed(1), state: 'done',
  });
  $('solutions-status').textContent = `Found in ${formatSeconds(a.ms)}`;
  const plural = (n, word) => `${n} ${word}${n === 1 ? '' : 's'}`;
  const share = a.queues ? formatPercent((100 * a.covered) / a.queues) : '0%';
  $('solutions-summary').textContent = a.unique
    ? `${plural(a.unique, 'unique solution')}; ${a.covered} of the ${plural(a.queues, 'queue')} (${share}) make a PC. `
      + `The minimal set: ${plural(a.minimal.length, 'solution')} that together cover them, the most queues first, `
      + 'each with the queues that build it. Choose one to step through it.'
    : `No PC: none of the ${plural(a.queues, 'queue')} builds one.`;
  box.replaceChildren(...solutionCards(a.minimal, a.queues, openSolution));
  $('solution-view').hidden = true;
  showLink(a.query);
}

function openSolution(solution, card) {
  for (const c of $('solutions').children) c.classList.toggle('chosen', c === card);
  $('solution-view').hidden = false;
  stepper.show(solution);
  $('solution-view').scrollIntoView({ block: 'nearest' });
}

// --- the graph --------------------------------------------------------------------------------
function useRules() {
  if (!solver) return;
  if (document.body.dataset.mode === 'play' && play?.game) solver.useRules(play.game.settings.kicks, play.game.settings.drop);
  else solver.useRules($('kicks').value, $('drop').value);
}

const MB = (bytes) => `${(bytes / 1e6).toFixed(1)} MB`;

function drawGraph(g) {
  const box = $('graph-status');
  const text = $('graph-text');
  const bar = $('graph-progress');
  const toggle = $('graph-toggle');
  box.dataset.state = g.state;
  const rules = g.entry ? `${g.entry.kicks}, ${g.entry.drop === 'softdrop' ? 'soft drop' : 'hard drop'}` : '';
  box.hidden = g.state === 'none' && !g.kicks;
  bar.hidden = g.state !== 'loading';
  toggle.hidden = g.state === 'none';
  box.removeAttribute('role');
  if (g.state === 'loading') {
    const stage = { cache: 'reading it from this browser\'s cache', download: 'downloading', check: 'checking it' }[g.stage] ?? 'loading';
    const amount = g.stage === 'download' && g.total ? ` ${MB(g.loaded ?? 0)} of ${MB(g.total)}` : '';
    text.textContent = `PC graph (${rules}): ${stage}${amount}… Until it is loaded, the first decisions of a PC take seconds.`;
    bar.value = g.total ? (g.loaded ?? 0) / g.total : 0;
    toggle.textContent = 'Stop';
  } else if (g.state === 'ready') {
    const fields = g.info?.fields ? `${(g.info.fields / 1e6).toFixed(g.info.fields < 1e6 ? 3 : 1)} M fields` : '';
    text.textContent = `PC graph (${rules}) ready: ${fields}, ${g.fromCache ? 'from this browser\'s cache' : `downloaded (${MB(g.entry.bytes)})`}, loaded in ${formatSeconds(g.ms)}.`;
    toggle.textContent = 'Turn off';
  } else if (g.state === 'failed') {
    box.setAttribute('role', 'alert');
    text.textContent = `PC graph (${rules}) not used: ${g.error}. Answering without it (the first decisions of a PC take seconds).`;
    toggle.textContent = 'Try again';
  } else if (g.state === 'off') {
    text.textContent = `PC graph (${rules}) off: the first decisions of a PC take seconds. ${MB(g.entry.bytes)} to download.`;
    toggle.textContent = 'Use it';
  } else {
    text.textContent = `No PC graph for ${g.kicks}, ${g.drop === 'softdrop' ? 'soft drop' : 'hard drop'} on this site: the first decisions of a PC take seconds.`;
  }
  box.dataset.ms = g.ms ?? '';
  box.dataset.fromCache = String(!!g.fromCache);
  // 'plain' once the browser keeps the graph in the layout that loads fastest (OPFS).
  box.dataset.cached = g.cached ?? '';
  // The worker's time making what a walk of five unknown pieces reads, once it has.
  box.dataset.preparedMs = g.preparedMs === undefined ? '' : String(Math.round(g.preparedMs));
  // 'file' when the worker read it from the file the browser keeps, 'site' when it took the
  // site's copy; preparedKept 'file' once that file is kept (read from it or written).
  box.dataset.preparedFrom = g.preparedFrom ?? '';
  box.dataset.preparedError = g.preparedError ?? '';
  box.dataset.preparedKept = g.preparedKept ?? '';
  if (play) play.render();
}

// --- links ------------------------------------------------------------------------------------
function showLink(given, inAddressBar = true) {
  // The solutions on screen stay in the link while they answer the form.
  const a = state.solutions;
  const extra = a && !given.includes('&pattern=') && a.key === solutionsKey() ? a.query.slice(a.query.indexOf('&pattern=')) : '';
  const query = `${given}${extra}`;
  $('share').value = `${location.origin}${location.pathname}?${query}`;
  if (inAddressBar) history.replaceState(null, '', `?${query}`);
}

/** The query as written, fragment included: a field with a raw '#' puts the rest there. */
function rawQuery() {
  const href = location.href;
  const i = href.indexOf('?');
  return i < 0 ? '' : href.slice(i + 1);
}

// --- modes ------------------------------------------------------------------------------------
function setMode(mode) {
  document.body.dataset.mode = mode;
  $('analysis').hidden = mode !== 'analysis';
  $('play').hidden = mode !== 'play';
  $('tab-analysis').setAttribute('aria-pressed', String(mode === 'analysis'));
  $('tab-play').setAttribute('aria-pressed', String(mode === 'play'));
  // #chance is the chance of the mode on screen.
  chanceEl.id = mode === 'analysis' ? 'chance' : 'analysis-chance';
  play.chanceEl.id = mode === 'play' ? 'chance' : 'play-chance';
  if (mode === 'play') {
    // The analysis solve would hold the worker up: Play mode's positions come first now.
    if (job) cancel();
    cancelSolutions();
    if (!play.game) newPlay();
    else showLink(play.link(play.game));
    play.render();
  } else {
    play.release();
    const checked = pc.call({ op: 'check', form: currentForm() });
    if (checked.ok) showLink(checked.query);
  }
  useRules();
}

function randomSeed() {
  return crypto.getRandomValues(new Uint32Array(1))[0];
}

function playSettings(form, seed, preview) {
  return {
    seed: seed ?? randomSeed(),
    preview: preview ?? settings.preview,
    kicks: form.kicks,
    drop: form.drop,
    two_line: !!form.two_line,
    clear_line: Number(form.clear_line) || 4,
  };
}

/**
 * A new game on a new seed (the New game button and its key, F2 by default): the rules of
 * the game on screen and the preview chosen now, from the empty field; the form's rules
 * when there is no game yet.
 */
function newGameOnNewSeed() {
  const s = play.game?.settings;
  if (s) play.newGame({ ...s, seed: randomSeed(), preview: settings.preview }, null);
  else newPlay();
}

/** A new game from the empty field with the form's rules. */
function newPlay(seed) {
  const form = currentForm();
  play.newGame(playSettings({ ...form, clear_line: 4 }, seed));
}

function playFromHere() {
  clearError();
  const form = currentForm();
  const checked = pc.call({ op: 'check', form });
  if (!checked.ok) {
    showError(checked.error, checked.input);
    return;
  }
  if (play.newGame(playSettings(checked.form), checked.form)) setMode('play');
}

// --- inputs -----------------------------------------------------------------------------------
function setupInputs() {
  const board = $('board');
  buildBoard(board, ROWS, { editable: true, labels: true });
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
  $('drop').addEventListener('change', changed);
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
  $('solutions-find').addEventListener('click', () => findSolutions());
  $('solutions-cancel').addEventListener('click', cancelSolutions);
  $('pattern').addEventListener('keydown', (e) => { if (e.key === 'Enter') findSolutions(); });
  $('pattern').addEventListener('input', drawSolutionsStale);
  stepper = new SolutionStepper({
    board: $('solution-board'), page: $('solution-page'), text: $('solution-text'), prev: $('solution-prev'),
    next: $('solution-next'), link: $('solution-link'), fumen: $('solution-fumen'),
  });
  $('play-here').addEventListener('click', playFromHere);
  $('line-prev').addEventListener('click', () => { state.page -= 1; drawLine(); });
  $('line-next').addEventListener('click', () => { state.page += 1; drawLine(); });
  $('share-copy').addEventListener('click', () => copy($('share')));
  $('line-fumen').addEventListener('focus', (e) => e.target.select());
  $('share').addEventListener('focus', (e) => e.target.select());
  $('tab-analysis').addEventListener('click', () => setMode('analysis'));
  $('tab-play').addEventListener('click', () => setMode('play'));
  $('graph-toggle').addEventListener('click', () => {
    const g = solver.graph;
    if (g.state === 'failed') {
      solver.graph = { state: 'loading', entry: g.entry };
      solver.loadGraph(false);
      return;
    }
    settings.graph = g.state === 'off';
    saveSettings(settings);
    $('set-graph').checked = settings.graph;
    solver.setGraphOff(!settings.graph);
  });
}

function copy(input) {
  input.select();
  navigator.clipboard?.writeText(input.value).catch(() => document.execCommand('copy'));
}

// --- Play mode's keys and settings -------------------------------------------------------------
function typing(target) {
  return target instanceof HTMLElement && (target.matches('input, select, textarea') || target.isContentEditable);
}

function setupPlayInputs() {
  window.addEventListener('keydown', (e) => {
    if (document.body.dataset.mode !== 'play' || $('settings-dialog').open || typing(e.target)) return;
    if (e.metaKey || e.altKey) return; // the browser's and the system's shortcuts
    play.keydown(e);
  });
  window.addEventListener('keyup', (e) => {
    if (document.body.dataset.mode !== 'play') return;
    play.keyup(e);
  });
  window.addEventListener('blur', () => play.release());
  // A click on a button must not leave it focused: Space would press it again.
  $('play').addEventListener('click', (e) => { if (e.target.closest('button')) e.target.closest('button').blur(); });
  for (let n = 1; n <= 6; n++) $('play-preview').append(el('option', { value: n }, String(n)));
  $('play-preview').value = String(settings.preview);
  $('play-preview').addEventListener('change', () => {
    settings.preview = Number($('play-preview').value);
    saveSettings(settings);
    $('play-preview').blur();
    if (play.start) play.newGame({ ...play.start.settings, preview: settings.preview }, play.start.form);
  });
  $('play-new').addEventListener('click', newGameOnNewSeed);
  $('play-settings').addEventListener('click', openSettings);
  $('settings-reset').addEventListener('click', () => {
    Object.assign(settings, JSON.parse(JSON.stringify(DEFAULTS)));
    saveSettings(settings);
    keyWarning('');
    fillSettings();
    solver.setGraphOff(!settings.graph);
  });
  $('settings-dialog').addEventListener('close', () => {
    readSettings();
    play.render();
    if (settings.gravity) play.loop();
    // The dialog gives the focus back to the Settings button: Space would open it again.
    requestAnimationFrame(() => document.activeElement?.blur());
  });
  for (const id of ['set-das', 'set-arr', 'set-sdf', 'set-gravity-ms', 'set-gravity', 'set-ghost', 'set-graph']) {
    $(id).addEventListener('change', () => {
      readSettings();
      if (id === 'set-graph') solver.setGraphOff(!settings.graph);
    });
  }
}

let capturing = null; // {action, slot, button}

function openSettings() {
  keyWarning('');
  fillSettings();
  $('settings-dialog').showModal();
}

/** The note that a key moved from one action to another ('' hides it). */
function keyWarning(text) {
  $('key-warning').textContent = text;
  $('key-warning').hidden = !text;
}

function fillSettings() {
  $('set-das').value = settings.das;
  $('set-arr').value = settings.arr;
  $('set-sdf').value = settings.sdf;
  $('set-gravity-ms').value = settings.gravityMs;
  $('set-gravity').checked = settings.gravity;
  $('set-ghost').checked = settings.ghost;
  $('set-graph').checked = settings.graph;
  const tbody = $('keys-table').querySelector('tbody');
  tbody.replaceChildren(...ACTIONS.map(([action, name]) => el('tr', { dataset: { action } },
    el('td', {}, name),
    ...[0, 1].map((slot) => el('td', {}, el('button', {
      type: 'button', class: 'key-button', dataset: { action, slot },
      onclick: (e) => startCapture(action, slot, e.currentTarget),
    }, keyLabel(settings.keys[action]?.[slot])))))));
}

function startCapture(action, slot, button) {
  capturing = { action, slot, button };
  button.textContent = 'press a key…';
  button.classList.add('capturing');
}

function readSettings() {
  const num = (id, key) => {
    const [lo, hi] = LIMITS[key];
    const v = Math.round(Number($(id).value));
    settings[key] = Number.isFinite(v) ? Math.min(hi, Math.max(lo, v)) : DEFAULTS[key];
  };
  num('set-das', 'das');
  num('set-arr', 'arr');
  num('set-sdf', 'sdf');
  num('set-gravity-ms', 'gravityMs');
  settings.gravity = $('set-gravity').checked;
  settings.ghost = $('set-ghost').checked;
  settings.graph = $('set-graph').checked;
  saveSettings(settings);
}

// Rebinding: the next key pressed while a key button waits.
window.addEventListener('keydown', (e) => {
  if (!capturing) return;
  e.preventDefault();
  e.stopImmediatePropagation();
  const { action, slot, button } = capturing;
  capturing = null;
  button.classList.remove('capturing');
  keyWarning('');
  if (e.code === 'Escape') {
    fillSettings();
    return;
  }
  if (e.code === 'Delete') {
    const codes = [...(settings.keys[action] ?? [])];
    codes.splice(slot, 1);
    settings.keys[action] = codes;
  } else {
    // A key does one action: one taken from another action moves, and the page says so.
    const taken = bind(settings, action, slot, e.code);
    if (taken) {
      const from = actionName(taken.from);
      const left = settings.keys[taken.from].map(keyLabel).join(' and ');
      keyWarning(`${keyLabel(e.code)} was bound to ${from}: it now does ${actionName(action)} instead. `
        + (left ? `${from} keeps ${left}.` : `${from} has no key now: bind one to it.`));
    }
  }
  saveSettings(settings);
  fillSettings();
}, { capture: true });

// --- start ------------------------------------------------------------------------------------
async function main() {
  setupInputs();
  setupPlayInputs();
  setForm(DEFAULT_FORM);
  let module;
  try {
    const compiled = await compileModule();
    module = compiled.module;
    pc = await Pc.create(module);
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
  solver = new SolverClient(module, new URL('./', location.href).href);
  solver.graphOff = !settings.graph;
  solver.addEventListener('graph', (e) => drawGraph(e.detail));
  play = new Play(pc, solver, settings, {
    onLink: (query) => showLink(query),
    onAnalyse: (form) => {
      setForm(form);
      state.answer = null;
      drawAnswer();
      setMode('analysis');
      solve();
    },
    onNewGame: newGameOnNewSeed,
  });
  window.pcPage = { play, solver, settings }; // for the timing scripts (web/time-graph.sh)
  setPageState('ready');
  const query = rawQuery();
  if (!query) {
    showLink(pc.call({ op: 'check', form: currentForm() }).query ?? '', false);
    useRules();
    return;
  }
  const read = pc.call({ op: 'query', query });
  if (!read.ok) {
    showError(read.error, read.input);
    setPageState('error');
    useRules();
    return;
  }
  // The link's parameters that could be used are in place; the others are messages.
  setForm(read.form);
  if (read.pattern) $('pattern').value = read.pattern;
  const errors = [...read.errors];
  if (read.play.play) {
    const from = read.solve ? pc.call({ op: 'check', form: read.form }) : null;
    if (from && !from.ok) errors.push({ error: from.error, input: from.input });
    const started = play.newGame(
      playSettings(from?.ok ? from.form : read.form, read.play.seed ?? undefined, read.play.preview ?? undefined),
      from?.ok ? from.form : null,
    );
    // The Preview menu shows the game's preview, the link's when it gave one.
    if (play.game) $('play-preview').value = String(play.game.settings.preview);
    setMode('play');
    if (errors.length) {
      play.showError(errors.map((e) => e.error).join('\n'));
      setPageState('error');
    } else if (!started) setPageState('error');
    return;
  }
  useRules();
  if (read.pattern) findSolutions({ fromLink: true });
  if (errors.length) {
    showErrors(errors);
    setPageState('error');
    return;
  }
  const checked = pc.call({ op: 'check', form: read.form });
  if (!checked.ok) {
    if (read.solve) {
      showError(checked.error, checked.input);
      setPageState('error');
    }
  } else if (read.solve) {
    setForm(checked.form);
    solve();
  }
}

main();
