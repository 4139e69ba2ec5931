// Play mode: a game of the 10-PC challenge with exact guidance.
//
// The game's state is the module's (web/src/play.rs): a move sends the game and where the
// piece locked, and gets the next game back (hold, reveal, line clears, PCs are the
// engine's). This file moves the falling piece with the module's cells and kicks (tried
// in the engine's order), reads the keyboard, asks the worker for the exact ranking of
// every position the game reaches, and shows it only for the position it answers.
import {
  $, el, pieceIcon, buildBoard, paintBoard, keysView, formatPercent, formatSeconds, fraction, minus,
  compare, fractionText, fractionPercent, sameCells, COLS, labelColumns,
} from './ui.js';
import { actionOf, keyLabel, saveSettings, stepCap, stepsText } from './settings.js';
import { solutionCards } from './solutions.js';

const ROWS_SHOWN = 22; // the 20 rows of the field and the two pieces spawn in
const SPAWN_ROWS = 4; // the top rows, where a piece spawns and turns (rows 19 to 22)
const ORIENTATIONS = ['spawn', 'right', 'reverse', 'left'];
const LOCK_DELAY = 500; // ms a piece rests before it locks, with gravity on
const LOCK_RESETS = 15;
// The field's gestures: a tap moves the finger less than this share of a column width and
// lasts at most TAP_MS; a swipe up or down goes at least SWIPE_ROWS column widths.
const TAP_SLOP = 0.5;
const TAP_MS = 400;
const SWIPE_ROWS = 1.5;
const REVIEW_SOLUTIONS = 48; // the solutions a PC's row in the review lists, at most
// The fills of the field a PC's row walks at most: from the empty field one queue builds
// thousands of PCs among millions of fills, and the worker is wanted for the game.
const REVIEW_FILLS = 20000;

export class Play {
  /**
   * `pc`: the page's module instance (quick requests); `solver`: the SolverClient;
   * `settings`: the saved settings (changed in place); `hooks.onLink(query)`: the link of
   * the game; `hooks.onAnalyse(form)`: open a position in analysis mode;
   * `hooks.onNewGame()`: a new game on a new seed (the New game button does the same).
   */
  constructor(pc, solver, settings, hooks) {
    this.pc = pc;
    this.solver = solver;
    this.settings = settings;
    this.hooks = hooks;
    this.tables = null;
    this.tablesKicks = null;
    this.game = null;
    this.gameId = 0;
    this.active = null; // {piece, o, x, y}
    this.holdPressed = false; // the falling piece came out of the (filled) hold slot
    this.history = []; // undo: {game, log}
    this.log = []; // {kind: 'move'|'hold', key, turn, piece, move}
    this.answers = new Map(); // position key -> {answer, ms, engine}
    this.appeared = new Map(); // position key -> performance.now() when first on screen
    this.timings = []; // {turn, key, ms, engine}: a piece appearing to its answer
    this.over = null;
    this.start = null; // {settings, form}: how this game began (for Replay)
    this.held = new Map(); // action -> {since, next}
    this.dir = null; // the direction held last
    this.lock = null; // {since, resets}: resting with gravity on
    this.gravityNext = 0;
    this.frame = 0;
    this.tick = this.tick.bind(this);
    this.clock = 0;
    this.chanceEl = $('play-chance'); // #chance while Play mode shows (app.js swaps the ids)
    buildBoard($('play-board'), ROWS_SHOWN);
    this.setupControls();
    solver.addEventListener('graph', (e) => {
      if (e.detail.state === 'ready') this.askAgainPartial();
    });
  }

  // --- games ----------------------------------------------------------------------------

  /** A new game with these settings ({seed, preview, kicks, drop, two_line, clear_line}), from `form` when given. */
  newGame(settings, form = null) {
    const answer = this.pc.call({ op: 'play_new', settings, form });
    if (!answer.ok) {
      this.showError(answer.error);
      return false;
    }
    this.clearError();
    this.start = { settings, form };
    this.gameId += 1;
    this.history = [];
    this.log = [];
    this.timings = [];
    this.over = null;
    this.solver.clearPending();
    this.loadTables(answer.game.settings.kicks);
    this.solver.useRules(answer.game.settings.kicks, answer.game.settings.drop);
    this.hooks.onLink(this.link(answer.game));
    this.setGame(answer.game);
    $('review-panel').hidden = true;
    return true;
  }

  /** The link that starts this game again. */
  link(game) {
    const s = game.settings;
    const parts = ['play=1', `seed=${s.seed}`, `preview=${s.preview}`, `kicks=${encodeURIComponent(s.kicks)}`];
    if (s.drop !== 'softdrop') parts.push(`drop=${s.drop}`);
    if (s.clear_line !== 4) parts.push(`clear=${s.clear_line}`);
    if (s.two_line) parts.push('two=1');
    const f = this.start.form;
    if (f) {
      parts.push(`field=${encodeURIComponent(f.field).replaceAll('%2F', '/')}`);
      if (f.hold) parts.push(`hold=${f.hold}`);
      parts.push(`queue=${f.queue}`);
      if (f.bag) parts.push(`bag=${f.bag}`);
    }
    return parts.join('&');
  }

  loadTables(kicks) {
    if (this.tablesKicks === kicks) return;
    const answer = this.pc.call({ op: 'tables', kicks });
    if (!answer.ok) throw new Error(answer.error);
    this.tables = answer;
    this.tablesKicks = kicks;
  }

  get key() {
    return this.game ? JSON.stringify(this.game.form) : '';
  }

  setGame(game, { restored = false } = {}) {
    this.game = game;
    this.holdPressed = false;
    this.lock = null;
    const key = this.key;
    if (!this.appeared.has(key)) this.appeared.set(key, performance.now());
    if (game.over) this.over = game.over;
    if (!this.over) {
      this.spawn(this.pieceNow());
      this.ask(key, 2);
    } else {
      this.active = null;
    }
    this.gravityNext = performance.now() + this.settings.gravityMs;
    $('play-panel').dataset.turn = game.turn;
    $('play-panel').dataset.form = JSON.stringify(game.form);
    $('play-panel').dataset.pcs = game.pcs;
    const last = game.placements[game.placements.length - 1];
    $('play-panel').dataset.lastCells = last ? JSON.stringify(last.cells) : '';
    $('play-panel').dataset.gameId = this.gameId;
    if (restored) $('play-panel').dataset.restored = String(Number($('play-panel').dataset.restored ?? 0) + 1);
    this.render();
    if (this.over) this.showReview();
    if (this.settings.gravity) this.loop();
  }

  pieceNow() {
    return this.game.form.queue[0];
  }

  /**
   * Asks the worker for a position's ranking (once per position; `again`: once more, the
   * answer kept on screen until the new one comes).
   */
  ask(key, priority, { again = false } = {}) {
    if (this.answers.has(key) && !again) return;
    if (priority === 2) this.solver.demote();
    const form = JSON.parse(key);
    const gameId = this.gameId;
    const turn = this.game.turn;
    this.solver.solve(form, { key: `play ${key}`, priority, op: 'play_solve' }).then(({ answer, ms, memory }) => {
      if (!answer.ok) {
        if (key === this.key) this.showError(answer.error);
        return;
      }
      const first = !this.answers.has(key);
      // (An answer that arrives once the graph is ready was computed with it: the worker
      // reports the graph loaded before it answers the solves that come after.)
      this.answers.set(key, { answer, ms, engine: answer.engine, graph: this.solver.graph.state === 'ready' });
      if (first && this.appeared.has(key)) {
        const first = !/#/.test(form.field); // the first decision of a PC: the empty field
        this.timings.push({
          turn, key, ms: performance.now() - this.appeared.get(key), solveMs: ms, engine: answer.engine, gameId, first,
          partial: !!answer.partial, memory,
        });
        $('play-panel').dataset.timings = JSON.stringify(this.timings.map((t) => [t.turn, Math.round(t.ms), t.engine]));
      }
      if (key === this.key && answer.chance && answer.chance.numer === 0 && !this.over) {
        this.over = { kind: 'lost', message: 'No perfect clear can be made from here any more.' };
        this.active = null;
      }
      this.render();
      if (this.over) this.showReview();
    }).catch((err) => {
      if (err.cancelled) return;
      if (key === this.key) this.showError(err.message);
    });
  }

  /**
   * The PC graph is ready: it answers the first decision of a game in full (the hold slot
   * empty), so the positions of this game that only holding first was computed for
   * without the graph are asked again.
   */
  askAgainPartial() {
    if (!this.game) return;
    const keys = new Set([this.key, ...this.log.map((e) => e.key)]);
    for (const key of keys) {
      const got = this.answers.get(key);
      if (got?.answer.partial && !got.graph) this.ask(key, key === this.key ? 2 : 1, { again: true });
    }
  }

  // --- the falling piece ------------------------------------------------------------------

  spawn(piece) {
    const [x, y] = this.tables.spawn;
    this.active = { piece, o: 0, x, y };
    if (!this.fits(this.active)) {
      this.active = null;
      this.over = { kind: 'lost', message: `${piece} has no room to spawn.` };
    }
  }

  cells(state) {
    const p = this.tables.pieces.indexOf(state.piece);
    return this.tables.cells[p][state.o].map(([dx, dy]) => [state.x + dx, state.y + dy]);
  }

  filled(x, y) {
    const rows = this.fieldRows();
    const row = rows[rows.length - 1 - y];
    return row !== undefined && row[x] !== '.';
  }

  /** The field's rows, top first, as the game holds them (`#`/`.`). */
  fieldRows() {
    if (this.rowsFor !== this.game.form.field) {
      this.rowsFor = this.game.form.field;
      this.rowsCache = this.game.form.field.split('/');
    }
    return this.rowsCache;
  }

  fits(state) {
    return this.cells(state).every(([x, y]) => x >= 0 && x < COLS && y >= 0 && y < 40 && !this.filled(x, y));
  }

  /** Moves by (dx, dy); false when it does not fit. */
  shift(dx, dy) {
    if (!this.active) return false;
    const next = { ...this.active, x: this.active.x + dx, y: this.active.y + dy };
    if (!this.fits(next)) return false;
    this.active = next;
    this.moved();
    return true;
  }

  /** Turns (0 cw, 1 ccw, 2 180°), trying the kicks in the engine's order. */
  rotate(turn) {
    if (!this.active) return false;
    const p = this.tables.pieces.indexOf(this.active.piece);
    const kicks = this.tables.kicks[p][this.active.o][turn];
    const to = (this.active.o + [1, 3, 2][turn]) % 4;
    for (const [kx, ky] of kicks) {
      const next = { ...this.active, o: to, x: this.active.x + kx, y: this.active.y + ky };
      if (this.fits(next)) {
        this.active = next;
        this.moved();
        return true;
      }
    }
    return false;
  }

  dropRow(state = this.active) {
    let s = state;
    for (;;) {
      const next = { ...s, y: s.y - 1 };
      if (!this.fits(next)) return s;
      s = next;
    }
  }

  resting() {
    return !!this.active && !this.fits({ ...this.active, y: this.active.y - 1 });
  }

  moved() {
    if (this.lock && this.lock.resets < LOCK_RESETS) {
      this.lock.since = performance.now();
      this.lock.resets += 1;
    }
    this.renderSoon();
  }

  hardDrop() {
    if (!this.active) return;
    this.active = this.dropRow();
    this.place();
  }

  /** Locks the falling piece where it is: the module plays the move. */
  place() {
    const a = this.active;
    const before = this.game;
    const key = this.key;
    const answer = this.pc.call({
      op: 'play_move', game: before, hold: this.holdPressed, orientation: ORIENTATIONS[a.o], x: a.x, y: a.y,
    });
    if (!answer.ok) {
      this.showError(answer.error);
      return;
    }
    this.clearError();
    this.history.push({ game: before, log: this.log.length, over: this.over });
    this.log.push({
      kind: 'move', key, turn: before.turn, piece: a.piece,
      move: { hold: this.holdPressed, cells: this.cells(a), orientation: ORIENTATIONS[a.o], x: a.x, y: a.y },
    });
    this.setGame(answer.game);
  }

  hold() {
    if (!this.active || this.holdPressed || this.game.form.hold_used) return;
    const form = this.game.form;
    if (!form.hold) {
      // Into the empty slot: the next piece comes out and one more is revealed.
      const before = this.game;
      const key = this.key;
      const answer = this.pc.call({ op: 'play_hold', game: before });
      if (!answer.ok) {
        this.showError(answer.error);
        return;
      }
      this.history.push({ game: before, log: this.log.length, over: this.over });
      this.log.push({ kind: 'hold', key, turn: before.turn, piece: form.queue[0], move: { into: true } });
      this.setGame(answer.game);
      return;
    }
    this.holdPressed = true;
    this.lock = null;
    this.spawn(form.hold);
    this.render();
  }

  undo() {
    const last = this.history.pop();
    if (!last) return;
    this.log.length = last.log;
    this.over = last.over;
    $('review-panel').hidden = true;
    this.setGame(last.game, { restored: true });
  }

  // --- keys, the pad and the field's gestures ---------------------------------------------

  keydown(e) {
    const action = actionOf(this.settings, e.code);
    if (!action) return false;
    e.preventDefault();
    if (!e.repeat) this.press(action);
    return true;
  }

  keyup(e) {
    const action = actionOf(this.settings, e.code);
    if (!action) return false;
    this.lift(action);
    return true;
  }

  /**
   * An action's key or button goes down (the keys, the pad, the field's taps and swipes):
   * moves and soft drop repeat while it is held, until lift(action).
   */
  press(action) {
    const now = performance.now();
    switch (action) {
      case 'left':
      case 'right':
        this.held.set(action, { since: now, next: now + this.settings.das });
        this.dir = action;
        this.shift(action === 'left' ? -1 : 1, 0);
        break;
      case 'softDrop':
        if (this.game?.settings.drop === 'harddrop') break;
        this.held.set(action, { since: now, next: now + this.settings.sdf });
        if (this.settings.sdf === 0) {
          if (this.active) {
            this.active = this.dropRow();
            this.moved();
          }
        } else this.shift(0, -1);
        break;
      case 'hardDrop': this.hardDrop(); break;
      case 'cw': this.rotate(0); break;
      case 'ccw': this.rotate(1); break;
      case 'r180': this.rotate(2); break;
      case 'hold': this.hold(); break;
      case 'undo': this.undo(); break;
      case 'hint': this.toggleHint(); break;
      case 'restart': this.hooks.onNewGame(); break;
      default: break;
    }
    this.render();
    this.loop();
  }

  /** An action's key or button goes up. */
  lift(action) {
    this.held.delete(action);
    if (this.dir === action) this.dir = this.held.has('left') ? 'left' : this.held.has('right') ? 'right' : null;
  }

  /** Lets go of every key (the page lost the focus). */
  release() {
    this.held.clear();
    this.dir = null;
  }

  loop() {
    if (!this.frame) this.frame = requestAnimationFrame(this.tick);
  }

  tick() {
    this.frame = 0;
    const now = performance.now();
    let busy = false;
    if (this.active && this.dir && this.held.has(this.dir)) {
      busy = true;
      const h = this.held.get(this.dir);
      const dx = this.dir === 'left' ? -1 : 1;
      if (now >= h.next) {
        if (this.settings.arr === 0) {
          while (this.shift(dx, 0));
          h.next = Infinity;
        } else {
          while (now >= h.next) {
            if (!this.shift(dx, 0)) {
              h.next = Infinity;
              break;
            }
            h.next += this.settings.arr;
          }
        }
      }
    }
    const soft = this.held.get('softDrop');
    if (this.active && soft && this.settings.sdf > 0) {
      busy = true;
      while (now >= soft.next) {
        if (!this.shift(0, -1)) break;
        soft.next += this.settings.sdf;
      }
      if (now >= soft.next) soft.next = now + this.settings.sdf;
    }
    if (this.active && this.settings.gravity && this.game.settings.drop !== 'harddrop') {
      busy = true;
      if (this.resting()) {
        this.lock ??= { since: now, resets: 0 };
        if (now - this.lock.since >= LOCK_DELAY) {
          this.place();
          this.render();
          this.loop();
          return;
        }
      } else {
        this.lock = null;
        if (now >= this.gravityNext) {
          this.shift(0, -1);
          this.gravityNext = now + this.settings.gravityMs;
        }
      }
    }
    if (busy) {
      this.render();
      this.frame = requestAnimationFrame(this.tick);
    }
  }

  toggleHint() {
    this.settings.hint = !this.settings.hint;
    saveSettings(this.settings);
    $('hint-toggle').setAttribute('aria-pressed', String(this.settings.hint));
    this.render();
  }

  // --- guidance ---------------------------------------------------------------------------

  /** The move the hint shows for the falling piece: {hold: 'first'} or a ranked move, or null. */
  hintMove() {
    const got = this.answers.get(this.key);
    if (!got || !this.active) return null;
    const a = got.answer;
    const form = this.game.form;
    if (a.partial) return { first: true, chance: a.hold_first };
    if (a.estimate) {
      const best = a.moves.find((m) => !this.holdPressed || m.hold) ?? null;
      if (!this.holdPressed && !form.hold && !form.hold_used && a.hold_first && (!best || a.hold_first.percent > best.chance.percent)) {
        return { first: true, chance: a.hold_first };
      }
      return best;
    }
    if (!form.hold && !form.hold_used && a.hold_first) {
      const best = a.moves[0];
      if (!best || compare(fraction(a.hold_first.fraction), fraction(best.chance.fraction)) > 0) return { first: true, chance: a.hold_first };
    }
    return a.moves.find((m) => !this.holdPressed || m.hold) ?? null;
  }

  /** Chance before, after, lost and the best choice of a log entry, once its position is answered. */
  judge(entry) {
    const got = this.answers.get(entry.key);
    if (!got) return null;
    const a = got.answer;
    if (a.partial) {
      // Only holding first was computed (the hold slot was empty): no exact chance before.
      const after = entry.kind === 'hold' ? fraction(a.hold_first.fraction) : null;
      return {
        before: null, after, lost: null, partial: true, best: `${this.holdName(entry)} (placing now was not computed)`, bestKeys: 'hold',
      };
    }
    if (a.estimate) {
      // Estimated (the exact chance takes hours): no exact chance lost.
      let after = null;
      if (entry.kind === 'hold') after = a.hold_first?.percent ?? null;
      else after = a.moves.find((r) => r.hold === entry.move.hold && sameCells(r.cells, entry.move.cells))?.chance.percent ?? 0;
      const best = a.moves[0];
      const holdFirst = a.hold_first && (!best || a.hold_first.percent > best.chance.percent);
      return {
        before: null, after: null, lost: null, estimate: { before: a.chance.percent, after },
        best: holdFirst ? this.holdName(entry) : best ? this.moveName(best) : 'no move',
        bestKeys: holdFirst ? 'hold' : best ? `${best.hold ? 'hold ' : ''}${best.keys}` : '',
        bestCells: holdFirst ? null : best?.cells,
      };
    }
    const before = fraction(a.chance.fraction);
    let after;
    if (entry.kind === 'hold') {
      after = fraction(a.hold_first ? a.hold_first.fraction : '0/1');
    } else {
      const m = a.moves.find((r) => r.hold === entry.move.hold && sameCells(r.cells, entry.move.cells));
      after = fraction(m ? m.chance.fraction : '0/1');
    }
    const best = a.moves[0];
    const holdFirst = a.hold_first && (!best || compare(fraction(a.hold_first.fraction), fraction(best.chance.fraction)) > 0);
    return {
      before, after, lost: minus(before, after),
      best: holdFirst ? this.holdName(entry) : best ? this.moveName(best) : 'no move',
      // A ranked move's keys leave hold out (its `hold` says so): it is pressed first.
      bestKeys: holdFirst ? 'hold' : best ? `${best.hold ? 'hold ' : ''}${best.keys}` : '',
      bestCells: holdFirst ? null : best?.cells,
    };
  }

  // --- names and keys -----------------------------------------------------------------------

  /** A move's name (see moveName): a ranked move, a hint, or a log entry's move with its piece. */
  moveName(move) {
    return moveName(this.tables, move);
  }

  /** The name of the move a log entry made. */
  entryName(entry) {
    return this.moveName({ ...entry.move, piece: entry.piece });
  }

  /** The name of holding into the empty slot in the position a log entry started from. */
  holdName(entry) {
    return this.moveName({ piece: JSON.parse(entry.key).queue[0], into: true });
  }

  /** A move's keys as caps of the player's own keys (the settings' bindings). */
  capsView(keys) {
    return keysView(keys, (step) => stepCap(this.settings, step));
  }

  // --- drawing ----------------------------------------------------------------------------

  renderSoon() {
    if (!this.renderQueued) {
      this.renderQueued = true;
      queueMicrotask(() => {
        this.renderQueued = false;
        this.render();
      });
    }
  }

  render() {
    if (!this.game) return;
    const form = this.game.form;
    const board = $('play-board');
    const rows = this.fieldRows();
    const active = this.active;
    const activeCells = active ? this.cells(active) : [];
    const overlays = [];
    const hint = this.settings.hint ? this.hintMove() : null;
    if (hint && !hint.first) overlays.push({ cells: hint.cells, piece: hint.piece, kind: 'hint' });
    if (active && this.settings.ghost) overlays.push({ cells: this.cells(this.dropRow()), piece: active.piece, kind: 'shadow' });
    const colours = this.game.colours ?? [];
    const sizes = rowSizes(form.clear_line);
    if (board.style.getPropertyValue('--row-sizes') !== sizes) board.style.setProperty('--row-sizes', sizes);
    paintBoard(board, ROWS_SHOWN, (x, y) => {
      if (activeCells.some(([ax, ay]) => ax === x && ay === y)) return active.piece;
      const row = rows[rows.length - 1 - y];
      if (row === undefined) return '';
      const ch = row[x];
      if (ch === '.' || ch === undefined) return '';
      const colour = colours[y]?.[x];
      return colour && colour !== '.' ? colour : 'X';
    }, overlays, form.clear_line);
    board.dataset.piece = active ? `${active.piece} ${ORIENTATIONS[active.o]} ${active.x} ${active.y}` : '';
    board.dataset.resting = this.resting() ? '1' : '0';

    // hold and preview
    const holdPiece = this.holdPressed ? form.queue[0] : form.hold;
    $('play-hold').replaceChildren(...(holdPiece ? [pieceIcon(holdPiece, 14)] : []));
    $('play-hold').classList.toggle('used', this.holdPressed || form.hold_used);
    $('play-hold').dataset.piece = holdPiece ?? '';
    $('play-next').replaceChildren(...[...form.queue.slice(1)].map((p) => el('div', { class: 'box mini', dataset: { piece: p } }, pieceIcon(p, 10))));
    $('play-next').dataset.queue = form.queue.slice(1);
    $('play-bag').textContent = form.bag ? `${form.bag.length} of this bag to come after the preview` : 'a fresh bag follows the preview';
    $('play-bag').dataset.bag = form.bag;
    $('pc-count').textContent = String(this.game.pcs);
    $('play-panel').dataset.over = this.over ? this.over.kind : '';
    $('play-seed').textContent = String(this.game.settings.seed);
    $('play-undo').disabled = this.history.length === 0;

    // the chance now
    const got = this.answers.get(this.key);
    const chance = this.chanceEl;
    if (got && got.answer.partial) {
      // The hold slot is empty: only holding first was computed.
      chance.textContent = '';
      chance.dataset.turn = String(this.game.turn);
      chance.className = '';
      $('play-percent').textContent = '';
      // The graph answers the first decision of a game in full: asked again once it is
      // ready (askAgainPartial).
      const g = this.solver.graph.state;
      const why = got.graph
        ? 'the PC graph does not answer this position, and the search takes minutes'
        : `without the PC graph it takes the solver minutes${g === 'loading' || g === 'ready' ? ' (asked again with the graph)' : ''}`;
      $('play-status').textContent = `Hold first: ${got.answer.hold_first.fraction} = ${formatPercent(got.answer.hold_first.percent)} (exact, in ${formatSeconds(got.ms)}${got.engine === 'graph' ? ' from the PC graph' : ''}). With the hold slot empty, the chance of placing now is not computed: ${why}.`;
      $('play-status').classList.remove('busy');
    } else if (got && got.answer.estimate) {
      // Six or more pieces unknown: the exact chance takes hours, so an estimate.
      const a = got.answer;
      chance.textContent = `≈${formatPercent(a.chance.percent)}`;
      chance.dataset.turn = String(this.game.turn);
      chance.dataset.estimate = 'true';
      chance.className = 'estimate';
      $('play-percent').textContent = `± ${a.chance.std_error.toFixed(2)}`;
      const more = a.estimate.revealed;
      $('play-status').textContent = `estimated in ${formatSeconds(got.ms)}: each move's exact chance with ${more} more piece${more === 1 ? '' : 's'} in view, over ${a.estimate.samples} draws (± one standard error). Seeing more never lowers a chance, so the exact one is at most about this; it takes the solver hours with this preview.`;
      $('play-status').classList.remove('busy');
    } else if (got) {
      delete chance.dataset.estimate;
      chance.textContent = got.answer.chance.fraction;
      chance.dataset.turn = String(this.game.turn);
      chance.className = got.answer.chance.numer === 0 ? 'zero' : got.answer.chance.numer === got.answer.chance.denom ? 'one' : '';
      $('play-percent').textContent = formatPercent(got.answer.chance.percent);
      $('play-status').textContent = `answered in ${formatSeconds(got.ms)}${got.engine === 'graph' ? ' from the PC graph' : ''}`;
      $('play-status').classList.remove('busy');
    } else if (this.over) {
      chance.textContent = '';
      $('play-percent').textContent = '';
      $('play-status').textContent = `${this.over.kind === 'done' ? 'Done' : 'Game over'}: ${this.over.message}`;
      $('play-status').classList.remove('busy');
    } else {
      chance.textContent = '';
      delete chance.dataset.turn;
      $('play-percent').textContent = '';
      const since = performance.now() - (this.appeared.get(this.key) ?? performance.now());
      const graph = this.solver.graph;
      const pcStart = !form.field.includes('#');
      let note = '';
      const preview = this.game.settings.preview;
      if (pcStart && preview < 4 && graph.state !== 'ready' && since > 3000) {
        note = ' — with fewer than 4 previews the first decisions of a PC are estimated once the PC graph is loaded (exactly, they take the solver hours)';
      } else if (pcStart && preview === 4 && graph.state === 'ready' && since > 3000) {
        note = ' — with 4 previews the PC graph takes seconds for the first decision of a PC (five pieces unknown), and a game\'s first decision (six unknown) the solver minutes';
      } else if (pcStart && graph.state === 'loading') {
        note = ' — the PC graph is still loading, so the first decision of this PC takes seconds';
      } else if (pcStart && graph.state !== 'ready' && since > 3000) {
        note = ' — without the PC graph the first decision of a PC takes 10 – 20 s';
      }
      $('play-status').textContent = `computing… ${(since / 1000).toFixed(1)} s${note}`;
      $('play-status').classList.add('busy');
      this.clockOn();
    }

    if (this.over) {
      $('play-status').textContent = `${this.over.kind === 'done' ? 'Done' : 'Game over'}: ${this.over.message}`;
      $('play-status').classList.remove('busy');
    }

    // the hint: #hint-keys holds the keys as text, in the notation of the recommend
    // example (data-hold: "true" when the move starts with hold, "first" when the hint is
    // to press hold into the empty slot and decide once the next piece shows)
    const keys = $('hint-keys');
    let text = '';
    let holdMark = '';
    if (hint && this.settings.hint) {
      if (hint.first) {
        text = 'hold';
        holdMark = 'first';
        $('hint-text').textContent = `${this.moveName({ piece: form.queue[0], into: true })} first, then place once the next piece shows: ${chanceText(hint.chance)}`;
      } else {
        text = hint.keys ?? '';
        holdMark = String(hint.hold && !this.holdPressed);
        $('hint-text').textContent = `${this.moveName(hint)}: ${chanceText(hint.chance)}`;
      }
    } else {
      const key = this.settings.keys.hint?.[0];
      $('hint-text').textContent = this.settings.hint ? (this.over ? '' : 'The hint shows once the chance is known.') : `Hint off${key ? ` (${keyLabel(key)})` : ''}.`;
    }
    if (keys.textContent !== text) keys.textContent = text;
    keys.dataset.hold = holdMark;
    const capsFor = `${holdMark} ${text} ${JSON.stringify(this.settings.keys)}`;
    if ($('hint-caps').dataset.for !== capsFor) {
      const caps = text ? this.capsView(holdMark === 'true' ? `hold ${text}` : text) : el('span');
      caps.dataset.for = capsFor;
      caps.id = 'hint-caps';
      $('hint-caps').replaceWith(caps);
    }

    this.renderLog();
  }

  /** Keeps the elapsed time moving while the answer is computed. */
  clockOn() {
    if (this.clock) return;
    this.clock = setInterval(() => {
      if (this.answers.has(this.key) || this.over || document.body.dataset.mode !== 'play') {
        clearInterval(this.clock);
        this.clock = 0;
      }
      this.render();
    }, 100);
  }

  renderLog() {
    const list = $('move-log');
    const entries = this.log.map((entry, i) => ({ entry, i, judged: this.judge(entry) }));
    const last = entries[entries.length - 1];
    const lastBox = $('last-move');
    if (!last) {
      lastBox.hidden = true;
    } else {
      lastBox.hidden = false;
      const j = last.judged;
      $('last-what').textContent = this.entryName(last.entry);
      $('last-before').textContent = j ? beforeText(j) : '…';
      $('last-after').textContent = j ? afterText(j) : '…';
      const lost = $('chance-lost');
      if (j) {
        lost.textContent = j.lost ? fractionText(j.lost) : '?';
        if (j.lost) lost.dataset.fraction = fractionText(j.lost);
        else delete lost.dataset.fraction;
        lastBox.classList.toggle('lost', lossy(j));
        $('last-verdict').textContent = lossy(j)
          ? `lost ${formatPercent(fractionPercent(j.lost))}; the best was ${j.best}${j.bestKeys ? ` (${stepsText(this.settings, j.bestKeys)})` : ''}`
          : j.partial ? 'with the hold slot empty only holding first is computed'
            : j.estimate ? `estimated (the exact chance takes hours); the best estimate was ${j.best}` : 'the best move';
      } else {
        lost.textContent = '…';
        delete lost.dataset.fraction;
        lastBox.classList.remove('lost');
        $('last-verdict').textContent = 'computing…';
      }
    }
    list.replaceChildren(...entries.slice(-12).reverse().map(({ entry, i, judged }) => el('li', {
      class: judged && lossy(judged) ? 'lost' : '',
      dataset: { index: i },
    },
    el('span', { class: 'n' }, `${i + 1}.`),
    pieceIcon(entry.piece, 8),
    el('span', { class: 'what' }, this.entryName(entry)),
    el('span', { class: 'num' }, judged ? `${beforeText(judged)} → ${afterText(judged)}` : '…'),
    judged && lossy(judged) ? el('span', { class: 'loss' }, `−${formatPercent(fractionPercent(judged.lost))}`) : '')));
  }

  showReview() {
    const panel = $('review-panel');
    const opening = panel.hidden;
    panel.hidden = false;
    $('review-title-text').textContent = this.over?.kind === 'done' ? 'Done: 10 PCs in a row' : 'Game over';
    $('review-message').textContent = `${this.over?.message ?? ''} PCs made: ${this.game.pcs}.`;
    const rows = this.log.map((entry, i) => ({ entry, i, j: this.judge(entry) }));
    const sorted = [...rows].sort((a, b) => {
      if (!a.j || !b.j) return (a.j ? -1 : 1) - (b.j ? -1 : 1) || a.i - b.i;
      if (!a.j.lost || !b.j.lost) return (a.j.lost ? -1 : 1) - (b.j.lost ? -1 : 1) || a.i - b.i;
      return compare(b.j.lost, a.j.lost) || a.i - b.i;
    });
    const tbody = $('review-table').querySelector('tbody');
    tbody.replaceChildren(...sorted.map(({ entry, i, j }) => el('tr', { dataset: { index: i, lost: j?.lost ? fractionText(j.lost) : '' } },
      el('td', { class: 'rank' }, String(i + 1)),
      el('td', { class: 'what' }, this.entryName(entry)),
      el('td', { class: 'num' }, j ? beforeText(j) : '…'),
      el('td', { class: 'num' }, j ? afterText(j) : '…'),
      el('td', { class: 'num lost-cell' }, j ? (lossy(j) ? `${fractionText(j.lost)} (${formatPercent(fractionPercent(j.lost))})` : j.lost ? '0' : '?') : '…'),
      el('td', { class: 'best' }, j ? (lossy(j) ? j.best : '—') : ''),
      el('td', { class: 'keys-cell' }, j && lossy(j) ? this.capsView(j.bestKeys) : ''))));
    labelColumns($('review-table'));
    // The game as a fumen, one page per placement, each with its chances.
    const moves = rows.filter((r) => r.entry.kind === 'move');
    const comments = moves.map(({ entry, i, j }) => `${i + 1}. ${entry.piece}: ${j ? `${beforeText(j)} -> ${afterText(j)}${lossy(j) ? ` (lost ${fractionText(j.lost)})` : ''}` : '?'}`);
    const fumen = this.pc.call({
      op: 'game_fumen',
      field: this.game.start_field,
      placements: this.game.placements.map((p) => ({ piece: p.piece, orientation: p.orientation, x: p.x, y: p.y })),
      comments,
    });
    if (fumen.ok) {
      $('review-fumen').value = fumen.fumen;
      $('review-link').href = fumen.url;
      $('review-link').hidden = false;
    } else {
      $('review-fumen').value = '';
      $('review-link').hidden = true;
    }
    this.drawReviewPcs();
    // Answers still coming for the review: ask for them (after the position on screen).
    for (const { entry } of rows) this.ask(entry.key, 1);
    if (opening) {
      // The game ended: bring the review into view once, filled (a smooth scroll goes as
      // far as the page is long when it starts); answers arriving later redraw it in place.
      // At a phone's width it is below the field and the guide.
      const still = matchMedia('(prefers-reduced-motion: reduce)').matches;
      panel.scrollIntoView({ block: 'start', behavior: still ? 'auto' : 'smooth' });
    }
  }

  /**
   * The PCs of the game, each from the field it started on, with the queue the player had:
   * the piece held at its start, then the piece each decision was about (placed, held, or
   * swapped into the hold slot), in the order they came; the PC not made ends with the
   * pieces in view at the end. [{form, pieces, made, moves}]
   */
  gamePcs() {
    const pcs = [];
    let current = null;
    let placed = 0;
    for (const entry of this.log) {
      const form = JSON.parse(entry.key);
      if (!current) current = { form, pieces: form.hold ? [form.hold] : [], made: false, moves: 0 };
      current.pieces.push(form.queue[0]);
      if (entry.kind !== 'move') continue;
      current.moves += 1;
      if (this.game.placements[placed++]?.pc) {
        pcs.push({ ...current, made: true });
        current = null;
      }
    }
    if (current) {
      // A piece locked above the clear line ends the game with the queue not moved on:
      // its first piece is the one placed last.
      const queue = [...this.game.form.queue].slice(this.game.over?.kind === 'lost' ? 1 : 0);
      pcs.push({ ...current, pieces: [...current.pieces, ...queue] });
    }
    return pcs;
  }

  /**
   * "Solutions for this PC": a row per PC of the game, opened on demand: every PC of its
   * start field that its queue builds (the module's path with that one queue).
   */
  drawReviewPcs() {
    const box = $('review-pcs');
    const gameId = this.gameId;
    const pcs = this.gamePcs();
    // Drawn again only when the game changed: an open row keeps its answer.
    const drawn = JSON.stringify([gameId, pcs.map((p) => [p.form, p.pieces])]);
    if (box.dataset.drawn === drawn) return;
    box.dataset.drawn = drawn;
    box.replaceChildren(...pcs.map((p, i) => {
      const pattern = p.pieces.join(',');
      const body = el('div', { class: 'pc-solutions' });
      const details = el('details', { dataset: { pc: i + 1, pattern } },
        el('summary', {}, `PC ${i + 1}${p.made ? '' : ' (not made)'}: solutions for the queue ${p.pieces.join('')}`),
        body);
      details.addEventListener('toggle', () => {
        if (!details.open || details.dataset.asked) return;
        details.dataset.asked = '1';
        body.replaceChildren(el('span', { class: 'status busy' }, 'Finding the solutions…'));
        const form = { ...p.form, hold_used: false };
        this.solver.solve(form, {
          key: `review-path ${JSON.stringify(form)} ${pattern}`, priority: 1, op: 'path', extra: { pattern, list: REVIEW_SOLUTIONS, fills: REVIEW_FILLS },
        }).then(({ answer, ms }) => {
          if (gameId !== this.gameId) return;
          if (!answer.ok) {
            body.replaceChildren(el('p', { class: 'error' }, answer.error));
            return;
          }
          details.dataset.unique = answer.unique;
          const more = answer.unique > answer.solutions.length ? ` (the first ${answer.solutions.length} shown)` : '';
          const some = answer.complete ? '' : 'at least ';
          body.replaceChildren(
            el('p', { class: 'board-note' }, answer.unique
              ? `${some}${answer.unique} PC${answer.unique === 1 ? '' : 's'} this queue builds from this field${more}, found in ${formatSeconds(ms)}${answer.complete ? '' : ' (the search stopped early: the field has more ways to fill)'}.`
              : answer.complete ? 'This queue builds no PC from this field.' : 'No PC found before the search stopped (the field has more ways to fill).'),
            el('div', { class: 'solutions' }, ...solutionCards(answer.solutions, answer.queues, (s) => window.open(s.url, '_blank', 'noopener'))),
          );
        }).catch((err) => {
          if (!err.cancelled) body.replaceChildren(el('p', { class: 'error' }, err.message));
          delete details.dataset.asked;
        });
      });
      return details;
    }));
  }

  // --- messages and controls ----------------------------------------------------------------

  showError(message) {
    $('play-error').hidden = false;
    $('play-error').textContent = message;
  }

  clearError() {
    $('play-error').hidden = true;
    $('play-error').textContent = '';
  }

  setupControls() {
    $('play-undo').addEventListener('click', () => this.undo());
    $('hint-toggle').addEventListener('click', () => this.toggleHint());
    $('hint-toggle').setAttribute('aria-pressed', String(this.settings.hint));
    $('play-analyse').addEventListener('click', () => this.hooks.onAnalyse({ ...this.game.form, hold_used: false }));
    $('review-again').addEventListener('click', () => this.start && this.newGame(this.start.settings, this.start.form));
    $('review-fumen').addEventListener('focus', (e) => e.target.select());
    this.setupPad();
    this.setupGestures();
  }

  /**
   * Buttons for touch screens, the actions of the keys: an action as the finger (or the
   * mouse) goes down, repeated while held as the key is; a click from the keyboard or
   * assistive technology (detail 0) presses and lifts it.
   */
  setupPad() {
    const pad = {
      'pad-left': 'left', 'pad-right': 'right', 'pad-ccw': 'ccw', 'pad-cw': 'cw', 'pad-180': 'r180',
      'pad-soft': 'softDrop', 'pad-hard': 'hardDrop', 'pad-hold': 'hold',
    };
    for (const [id, action] of Object.entries(pad)) {
      const button = $(id);
      button.addEventListener('pointerdown', (e) => {
        if (e.button !== 0) return;
        e.preventDefault();
        button.setPointerCapture?.(e.pointerId);
        this.press(action);
      });
      for (const type of ['pointerup', 'pointercancel', 'lostpointercapture']) button.addEventListener(type, () => this.lift(action));
      button.addEventListener('click', (e) => {
        e.preventDefault();
        if (e.detail !== 0) return; // a pointer's: pressed on pointerdown
        this.press(action);
        this.lift(action);
      });
    }
  }

  /**
   * Gestures on the field, for a finger or a pen (the mouse does nothing there): a tap
   * turns the piece clockwise, a drag sideways moves it a column per column width the
   * finger goes (back too), a swipe down hard-drops, a swipe up holds. The field has
   * `touch-action: none`: the page does not scroll or zoom under the finger.
   */
  setupGestures() {
    const board = $('play-board');
    let g = null; // the gesture: {id, x0, y0, t0, pitch, axis, cols}
    board.addEventListener('pointerdown', (e) => {
      if (e.pointerType === 'mouse' || g) return;
      e.preventDefault();
      board.setPointerCapture?.(e.pointerId);
      const [a, b] = board.cells;
      const pitch = b.getBoundingClientRect().left - a.getBoundingClientRect().left;
      g = { id: e.pointerId, x0: e.clientX, y0: e.clientY, t0: performance.now(), pitch, axis: null, cols: 0 };
    });
    board.addEventListener('pointermove', (e) => {
      if (!g || e.pointerId !== g.id) return;
      const dx = e.clientX - g.x0;
      const dy = e.clientY - g.y0;
      // The first movement past the slop decides: sideways moves, up or down swipes.
      if (!g.axis && Math.hypot(dx, dy) >= TAP_SLOP * g.pitch) g.axis = Math.abs(dx) >= Math.abs(dy) ? 'x' : 'y';
      if (g.axis !== 'x') return;
      const cols = Math.trunc(dx / g.pitch);
      while (g.cols !== cols) {
        const step = Math.sign(cols - g.cols);
        // Against a wall or a block the finger goes on alone: back, the piece follows at once.
        this.shift(step, 0);
        g.cols += step;
      }
      this.render();
    });
    const end = (e) => {
      if (!g || e.pointerId !== g.id) return;
      const dy = e.clientY - g.y0;
      if (e.type === 'pointerup') {
        if (!g.axis && performance.now() - g.t0 <= TAP_MS) this.press('cw');
        else if (g.axis === 'y' && dy >= SWIPE_ROWS * g.pitch) this.press('hardDrop');
        else if (g.axis === 'y' && dy <= -SWIPE_ROWS * g.pitch) this.press('hold');
      }
      g = null;
    };
    board.addEventListener('pointerup', end);
    board.addEventListener('pointercancel', end);
  }

  /** What the page measured: a piece appearing to its answer. */
  figures() {
    return this.timings.map((t) => ({
      turn: t.turn, ms: t.ms, solveMs: t.solveMs, engine: t.engine, first: t.first, partial: t.partial, memory: t.memory,
    }));
  }
}

/**
 * The heights of the field's rows, top first, for the phone layouts (style.css uses
 * `--row-sizes` up to 560 px wide, and on short, wide screens): the spawn rows and the rows up to two above the clear
 * line (six at least) at full size, the empty rows between them squeezed.
 */
function rowSizes(clearLine) {
  const full = Math.min(Math.max(clearLine + 2, 6), ROWS_SHOWN - SPAWN_ROWS);
  const squeezed = ROWS_SHOWN - SPAWN_ROWS - full;
  return `repeat(${SPAWN_ROWS}, var(--cell))${squeezed ? ` repeat(${squeezed}, var(--squeezed))` : ''} repeat(${full}, var(--cell))`;
}

/** Whether a judged entry lost chance. */
function lossy(j) {
  return !!(j && j.lost && j.lost.n > 0n);
}

/** A set of cells moved to the corner, as text: the same for the same shape anywhere. */
function shapeOf(cells) {
  const x0 = Math.min(...cells.map(([x]) => x));
  const y0 = Math.min(...cells.map(([, y]) => y));
  return cells.map(([x, y]) => `${x - x0},${y - y0}`).sort().join(' ');
}

/**
 * The name of a move, one for the hint, the last move, the log and the review. It comes
 * from the cells, not from how the piece was turned: S turned left and S turned right to
 * the same cells are one placement. The piece, the orientation the engine reports (the
 * first of spawn, right, reverse, left with that shape: I, S and Z upright are `right`,
 * O is `spawn`), and the columns, from 1 at the left: `S right, columns 4–5, with hold`.
 * `move`: {piece, cells, hold}, or {piece, into: true} for a hold into the empty slot.
 */
function moveName(tables, move) {
  if (move.into) return `${move.piece} into the hold slot`;
  const p = tables.pieces.indexOf(move.piece);
  const shape = shapeOf(move.cells);
  const o = tables.cells[p].findIndex((cells) => shapeOf(cells) === shape);
  const xs = move.cells.map(([x]) => x + 1);
  const [lo, hi] = [Math.min(...xs), Math.max(...xs)];
  const columns = lo === hi ? `column ${lo}` : `columns ${lo}–${hi}`;
  return `${move.piece} ${ORIENTATIONS[o] ?? move.orientation}, ${columns}${move.hold ? ', with hold' : ''}`;
}

/** A chance as the hint shows it: exact (`n/d`) or estimated (`≈p%`). */
function chanceText(c) {
  return c.fraction ?? `≈${formatPercent(c.percent)}`;
}

/** A judged entry's chance before the move: exact, or `≈p%` when estimated. */
function beforeText(j) {
  return j.estimate ? `≈${formatPercent(j.estimate.before)}` : fractionText(j.before);
}

/** A judged entry's chance after the move: exact, or `≈p%` when estimated. */
function afterText(j) {
  return j.estimate && j.estimate.after !== null ? `≈${formatPercent(j.estimate.after)}` : fractionText(j.after);
}
