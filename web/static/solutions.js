// The solutions of a field for a pattern (the module's {op: 'path'}, sfinder's `path`):
// small pictures of the PCs, each with the share of the queues that build it, and a
// stepper through the one chosen, placement by placement. Analysis mode shows the minimal
// set of a pattern; Play mode's review the solutions of the queue a PC had.
import { el, buildBoard, paintBoard, formatPercent } from './ui.js';

/** A PC as a small field: `rows` top first, '.' empty, 'X' gray, else a piece letter. */
export function solutionPicture(rows) {
  const board = el('div', { class: 'board mini-board', 'aria-hidden': 'true' });
  buildBoard(board, rows.length);
  paintBoard(board, rows.length, (x, y) => {
    const ch = rows[rows.length - 1 - y][x];
    return ch === '.' ? '' : ch;
  });
  return board;
}

/** `k/n` and the percent of a solution's queues. */
export function shareText(solution, queues) {
  return `${solution.queues}/${queues} · ${formatPercent(solution.percent)}`;
}

/**
 * The cards of some solutions: a picture, the share of the queues, and a fumen link each;
 * a click on a card calls `onOpen(solution, card)`.
 */
export function solutionCards(solutions, queues, onOpen) {
  return solutions.map((s, i) => el('div', {
    class: 'solution', dataset: { index: s.index, queues: s.queues },
  },
  el('button', {
    type: 'button', class: 'solution-open', title: `Step through it: ${s.csv}`,
    'aria-label': `Solution ${i + 1}: ${s.queues} of ${queues} queues; step through it`,
    onclick: (e) => onOpen(s, e.currentTarget.parentElement),
  }, solutionPicture(s.rows)),
  // (One queue builds every solution of its own: no share to tell.)
  queues > 1 ? el('span', { class: 'share-of' }, shareText(s, queues)) : '',
  el('a', { href: s.url, target: '_blank', rel: 'noopener', class: 'small-link' }, 'fumen')));
}

/**
 * A stepper through one solution's pages (one per placement, then the cleared field),
 * drawn into `parts`: {board, page, text, prev, next, link, fumen}.
 */
export class SolutionStepper {
  constructor(parts) {
    this.parts = parts;
    this.solution = null;
    this.page = 0;
    parts.prev.addEventListener('click', () => this.go(this.page - 1));
    parts.next.addEventListener('click', () => this.go(this.page + 1));
    parts.fumen?.addEventListener('focus', (e) => e.target.select());
  }

  show(solution) {
    this.solution = solution;
    this.page = 0;
    this.draw();
  }

  go(page) {
    if (!this.solution) return;
    this.page = Math.max(0, Math.min(page, this.solution.pages.length - 1));
    this.draw();
  }

  draw() {
    const { board, page, text, prev, next, link, fumen } = this.parts;
    const pages = this.solution.pages;
    const p = pages[this.page];
    const rows = p.rows.length;
    if (board.children.length !== rows * 10) buildBoard(board, rows);
    paintBoard(board, rows, (x, y) => {
      const ch = p.rows[rows - 1 - y][x];
      return ch === '.' ? '' : ch;
    }, p.piece ? [{ ...p.piece, kind: 'ghost' }] : []);
    page.textContent = `${this.page + 1} / ${pages.length}`;
    text.textContent = p.piece ? `${this.page + 1}. ${p.piece.piece} ${p.piece.orientation}` : 'Perfect clear.';
    prev.disabled = this.page === 0;
    next.disabled = this.page === pages.length - 1;
    link.href = this.solution.url;
    if (fumen) fumen.value = this.solution.fumen;
  }
}
