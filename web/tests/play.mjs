// Play mode in headless Chromium: a scripted player that plays by keyboard events only,
// following the page's hints, checked against the native `recommend` example at every
// step; a player on a phone's touch screen (taps, swipes, the pad) following the hints,
// with the field, the chance, the hint and the pad in the first screen; a worse move and
// its chance lost; undo; settings and a rebound key; the hint in the player's own keys;
// one name for a move everywhere; the review brought into view; a key taken from another
// action; New game and F2.
import { join } from 'node:path';
import {
  alerts, assert, assertEqual, check, difference, figures, native, nativeFraction, nativePath, open, sleep, sortCells,
  tableProblems, text,
} from './lib.mjs';

// The position of the first PC that the checks start from (119/120 with O held).
const FIRST_PC = 'field=%23%23%23%23......&hold=O&queue=TSZLJI&bag=OTSZLJ';

// The keys of the recommend example's notation, as the default bindings press them.
const KEYS = { L: 'ArrowLeft', R: 'ArrowRight', cw: 'KeyX', ccw: 'KeyZ', 180: 'KeyA', hd: 'Space' };
// The hint's key caps with the default bindings: the first key of each action (`sd`: soft
// drop kept down to the bottom).
const DEFAULT_CAPS = {
  L: '←', R: '→', cw: '↑', ccw: 'Z', 180: 'A', d: '↓', sd: '↓…', hd: 'Space', hold: 'C',
};

/** The caps the hint should show for its keys and hold mark, with these caps per step. */
function expectedCaps(keys, hold, caps = DEFAULT_CAPS) {
  const steps = hold === 'first' ? ['hold'] : [...(hold === 'true' ? ['hold'] : []), ...keys.split(' ').filter(Boolean)];
  return steps.map((k) => caps[k]);
}

/** The hint's key caps as shown. */
async function hintCaps(page) {
  return page.$$eval('#hint-caps kbd', (caps) => caps.map((k) => k.textContent));
}

/** The name the hint gives its move (#hint-text is `NAME: CHANCE`). */
async function hintName(page) {
  const t = await text(page, '#hint-text');
  return t.slice(0, t.lastIndexOf(': '));
}

async function turn(page) {
  return page.$eval('#play-panel', (n) => n.dataset.turn);
}

/**
 * A page in a browser context of its own (its settings apart from the other checks');
 * `before(page)` runs first. Close it with page.browserContext().close().
 */
async function openApart(browser, base, query, before = async () => {}) {
  const page = await (await browser.createBrowserContext()).newPage();
  await before(page);
  return open(browser, base, query, { page });
}

/** Waits until the chance on screen answers the position on screen. */
async function waitAnswer(page, timeout = 60_000) {
  const t = await turn(page);
  await page.waitForFunction((x) => document.getElementById('chance')?.dataset.turn === x, { timeout, polling: 20 }, t);
}

async function position(page) {
  return JSON.parse(await page.$eval('#play-panel', (n) => n.dataset.form));
}

/** The keys of a move, pressed one by one: `sd` holds soft drop until the piece rests. */
async function press(page, keys) {
  for (const k of keys.split(' ').filter(Boolean)) {
    if (k === 'sd') {
      await page.keyboard.down('ArrowDown');
      await page.waitForFunction(() => document.getElementById('play-board').dataset.resting === '1', { timeout: 5_000, polling: 10 });
      await page.keyboard.up('ArrowDown');
    } else if (k === 'd') {
      await page.keyboard.press('ArrowDown');
    } else {
      assert(KEYS[k], `no key for ${k}`);
      await page.keyboard.press(KEYS[k]);
    }
  }
}

/** What the page shows: the chance, the hint's keys and hold mark, the hint's cells. */
async function shown(page) {
  return page.evaluate(() => ({
    chance: document.getElementById('chance').textContent,
    keys: document.getElementById('hint-keys').textContent,
    hold: document.getElementById('hint-keys').dataset.hold,
    cells: [...document.querySelectorAll('#play-board .cell.hint')].map((c) => [Number(c.dataset.x), Number(c.dataset.y)]),
    pcs: Number(document.getElementById('pc-count').textContent),
    over: document.getElementById('play-panel').dataset.over,
  }));
}

/**
 * One decision of the scripted player: checks the page's chance and best move against
 * the native example (positions right after a hold into the empty slot have no form the
 * example takes: counted apart), then plays the hint by keyboard. Returns what it did.
 */
async function followHint(page, recommend, log) {
  await waitAnswer(page);
  const form = await position(page);
  const s = await shown(page);
  if (form.hold_used) {
    log.skipped += 1;
  } else {
    const n = native(recommend, form);
    assertEqual(s.chance, nativeFraction(n), `chance of ${JSON.stringify(form)}`);
    const holdFirst = n.hold_first && (n.moves.length === 0
      || BigInt(n.hold_first[0]) * BigInt(n.moves[0].probability[1]) > BigInt(n.moves[0].probability[0]) * BigInt(n.hold_first[1]));
    if (holdFirst) {
      assertEqual(s.hold, 'first', 'the hint is to hold first');
    } else {
      assertEqual({ keys: s.keys, hold: s.hold === 'true' }, { keys: n.moves[0].path, hold: n.moves[0].hold }, `hint of ${JSON.stringify(form)}`);
      assertEqual(sortCells(s.cells), sortCells(n.moves[0].cells), 'hint cells');
    }
    log.checked += 1;
  }
  assertEqual(await hintCaps(page), expectedCaps(s.keys, s.hold), `hint caps of ${s.hold} ${s.keys}`);
  log.chances.push(s.chance);
  const name = await hintName(page);
  if (s.hold === 'first' || s.hold === 'true') await page.keyboard.press('KeyC');
  if (s.hold === 'first') return { held: true };
  await press(page, s.keys);
  const placed = JSON.parse(await page.$eval('#play-panel', (n) => n.dataset.lastCells));
  assertEqual(sortCells(placed), sortCells(s.cells), 'the keys place the hinted move');
  // The move is named in the log as the hint named it.
  assertEqual(await text(page, '#last-what'), name, 'the last move named as the hint named it');
  assertEqual(await text(page, '#move-log li:first-child .what'), name, 'the log names it the same');
  const after = await position(page);
  const pc = after.field.replaceAll('.', '').replaceAll('/', '') === '' && form.field.replaceAll('.', '').replaceAll('/', '') !== '';
  return { placed: true, pc };
}

// --- a phone -----------------------------------------------------------------------------------

/**
 * What of Play's first screen is not in the window, the page at its top: the field (whole:
 * the spawn rows and the rows of the PC at full size, square cells, the rows between
 * squeezed), #chance, #hint-keys and the pad's buttons (each at least 44 px square).
 */
async function firstScreenProblems(page) {
  return page.evaluate(() => {
    const problems = [];
    if (window.scrollY !== 0) problems.push(`the page scrolled to ${window.scrollY} px`);
    const inside = (name, node) => {
      const r = node.getBoundingClientRect();
      if (r.width < 1 || r.height < 1 || r.left < 0 || r.top < 0 || r.right > innerWidth || r.bottom > innerHeight) {
        problems.push(`${name}: ${Math.round(r.left)},${Math.round(r.top)} to ${Math.round(r.right)},${Math.round(r.bottom)} outside ${innerWidth}×${innerHeight}`);
      }
      return r;
    };
    const board = document.getElementById('play-board');
    inside('#play-board', board);
    inside('#chance', document.getElementById('chance'));
    inside('#hint-keys', document.getElementById('hint-keys'));
    for (const b of document.querySelectorAll('.pad button')) {
      const r = inside(`#${b.id}`, b);
      if (r.width < 44 || r.height < 44) problems.push(`#${b.id}: ${Math.round(r.width)}×${Math.round(r.height)}, under 44 px`);
    }
    const clear = JSON.parse(document.getElementById('play-panel').dataset.form).clear_line;
    const size = (y) => board.querySelector(`.cell[data-x="0"][data-y="${y}"]`).getBoundingClientRect();
    for (const y of [...Array(clear).keys(), 18, 19, 20, 21]) {
      const r = size(y);
      if (Math.abs(r.width - r.height) > 0.5) problems.push(`row ${y + 1}: cells ${r.width}×${r.height}`);
    }
    if (size(10).height > size(0).height / 2) problems.push(`row 11 is not squeezed: ${size(10).height} px high`);
    return problems;
  });
}

/** A finger on the field: from its middle, dx and dy column widths (0, 0: a tap). */
async function swipe(page, dx, dy) {
  const { x, y, pitch } = await page.$eval('#play-board', (board) => {
    const r = board.getBoundingClientRect();
    const [a, b] = board.querySelectorAll('.cell');
    return { x: r.left + r.width / 2, y: r.top + r.height / 2, pitch: b.getBoundingClientRect().left - a.getBoundingClientRect().left };
  });
  const touch = await page.touchscreen.touchStart(x, y);
  const steps = dx || dy ? 3 : 0;
  for (let i = 1; i <= steps; i++) await touch.move(x + (dx * pitch * i) / steps, y + (dy * pitch * i) / steps);
  await touch.end();
}

/**
 * A move's keys (the hint's: the recommend example's notation, `hold` first when it
 * holds) played by touch: hold a swipe up, a run of L or R one drag sideways of that many
 * columns, cw a tap on the field, hd a swipe down; ccw, 180, d the pad's buttons, sd the
 * pad's soft drop held until the piece rests.
 */
async function touchKeys(page, keys) {
  const steps = keys.split(' ').filter(Boolean);
  for (let i = 0; i < steps.length; i++) {
    const k = steps[i];
    if (k === 'L' || k === 'R') {
      let n = 1;
      while (steps[i + 1] === k) [n, i] = [n + 1, i + 1];
      await swipe(page, (k === 'L' ? -1 : 1) * (n + 0.5), 0);
    } else if (k === 'hold') await swipe(page, 0, -3);
    else if (k === 'cw') await swipe(page, 0, 0);
    else if (k === 'hd') await swipe(page, 0, 3);
    else if (k === 'ccw') await page.tap('#pad-ccw');
    else if (k === '180') await page.tap('#pad-180');
    else if (k === 'd') await page.tap('#pad-soft');
    else if (k === 'sd') {
      const r = await page.$eval('#pad-soft', (b) => b.getBoundingClientRect().toJSON());
      const touch = await page.touchscreen.touchStart(r.x + r.width / 2, r.y + r.height / 2);
      await page.waitForFunction(() => document.getElementById('play-board').dataset.resting === '1', { timeout: 5_000, polling: 10 });
      await touch.end();
    } else throw new Error(`no touch for ${k}`);
  }
}

/** The state undo must bring back. */
async function snapshot(page) {
  return page.evaluate(() => ({
    form: document.getElementById('play-panel').dataset.form,
    chance: document.getElementById('chance').textContent,
    pcs: document.getElementById('pc-count').textContent,
    hold: document.getElementById('play-hold').dataset.piece,
    next: document.getElementById('play-next').dataset.queue,
    bag: document.getElementById('play-bag').dataset.bag,
    cells: [...document.querySelectorAll('#play-board .cell.filled')].map((c) => `${c.dataset.x},${c.dataset.y},${c.className}`).join(' '),
  }));
}

/** Whether the native answer's best choice is to hold first (hold_first beats every move). */
function nativeHoldsFirst(n) {
  return !!n.hold_first && (n.moves.length === 0
    || BigInt(n.hold_first[0]) * BigInt(n.moves[0].probability[1]) > BigInt(n.moves[0].probability[0]) * BigInt(n.hold_first[1]));
}

/**
 * A Play link starting from `field` (rows, top first) with the hold slot empty, four
 * previews (three pieces of a 7-piece PC unknown: the graph of that field answers it).
 */
function emptyHoldStart(field, queue, bag) {
  return `play=1&seed=1&preview=4&kicks=srs&field=${encodeURIComponent(field).replaceAll('%2F', '/')}&queue=${queue}&bag=${bag}`;
}

/** The first decision of a game from the test site's graph: the answer of the position on screen. */
async function graphAnswer(page) {
  await page.waitForFunction(() => document.getElementById('graph-status').dataset.state === 'ready', { timeout: 30_000 });
  await waitAnswer(page);
  return page.evaluate(() => {
    const got = window.pcPage.play.answers.get(window.pcPage.play.key);
    return { engine: got.engine, partial: !!got.answer.partial };
  });
}

export async function playChecks({
  browser, base, recommend, path, out, graphField,
}) {
  await check('Play: the first decision with the hold slot empty is exact from the graph (chance, hint, last move, review) as the native one; what the five-unknown walk reads is taken from the site (or made, when the site\'s copy is damaged) and kept for the next page', async () => {
    // The test site's graph is of graphField (7 pieces to a PC): from it, the hold slot
    // empty, the current piece and four previews, three pieces unknown. Without the graph
    // the page computes only holding first there (the depth-first search takes long on
    // the full field).
    const status = (page) => page.$eval('#graph-status', (n) => ({ ...n.dataset }));
    const waitStatus = (page, key) => page.waitForFunction((k) => document.getElementById('graph-status').dataset[k], { timeout: 30_000 }, key);
    // 0. The site's copy of what the graph's walk of five unknown pieces reads damaged
    //    (five-damaged/, a browser context of its own: no file kept yet): refused, so the
    //    worker makes it itself after the first answer of a game with four previews, and
    //    keeps it.
    let context = await browser.createBrowserContext();
    let page = await open(browser, `${base}five-damaged/`, emptyHoldStart(graphField, 'LSOLT', 'OZSIJ'), { page: await context.newPage() });
    assertEqual(await graphAnswer(page), { engine: 'graph', partial: false }, 'the answer (the site\'s copy damaged)');
    await waitStatus(page, 'preparedError');
    await waitStatus(page, 'preparedKept');
    let st = await status(page);
    assert(st.preparedError.endsWith('the graph file is damaged (checksum mismatch)'), `the damaged copy refused: "${st.preparedError}"`);
    assertEqual([st.preparedFrom, st.preparedKept, st.preparedMs !== ''], ['', 'file', true], 'made, then kept');
    assertEqual(page.problems, [], 'console (the site\'s copy damaged)');
    await context.close();
    // 1. The best choice is a placement (19/20; holding first 4/5): the hint shows it;
    //    a move that loses the PC ends the game, and its row in the review is exact.
    context = await browser.createBrowserContext();
    page = await open(browser, base, emptyHoldStart(graphField, 'LSOLT', 'OZSIJ'), { page: await context.newPage() });
    assertEqual(await graphAnswer(page), { engine: 'graph', partial: false }, 'the answer');
    assertEqual(await page.$eval('#play-preview', (n) => n.value), '4', 'the Preview menu shows the link\'s preview');
    // Once the graph is in, the worker takes what the graph's walk of five unknown pieces
    // reads (a later start of a PC) from the site ...
    await waitStatus(page, 'preparedMs');
    // ... and keeps it in a file beside the graph, which the next page reads (below).
    await waitStatus(page, 'preparedKept');
    st = await status(page);
    assertEqual([st.preparedFrom, st.preparedKept, st.preparedError], ['site', 'file', ''], 'what five unknown pieces read, from the site, kept');
    let form = await position(page);
    assertEqual([form.field, form.hold, form.hold_used, form.queue], [graphField, '', false, 'LSOLT'], 'the position');
    let n = native(recommend, form);
    let s = await shown(page);
    assertEqual(s.chance, nativeFraction(n), '#chance');
    assert(!nativeHoldsFirst(n), 'the native best choice is a placement');
    assertEqual({ keys: s.keys, hold: s.hold }, { keys: n.moves[0].path, hold: String(n.moves[0].hold) }, 'the hint');
    assertEqual(sortCells(s.cells), sortCells(n.moves[0].cells), 'the hint\'s cells');
    assert((await text(page, '#hint-text')).endsWith(`: ${nativeFraction(n.moves[0])}`), 'the hint\'s chance');
    const [bestName, bestCaps] = [await hintName(page), await hintCaps(page)];
    const frac = (m) => `${m.probability[0]}/${m.probability[1]}`;
    const losing = n.moves.find((m) => !m.hold && m.probability[0] === 0);
    assert(losing, 'a move without a PC');
    await press(page, losing.path);
    await page.waitForFunction(() => document.getElementById('chance-lost').dataset.fraction, { timeout: 10_000 });
    assertEqual([await text(page, '#last-before'), await text(page, '#last-after'), await page.$eval('#chance-lost', (e) => e.dataset.fraction)],
      [nativeFraction(n), '0/1', nativeFraction(n)], 'the last move: before, after, lost');
    const verdict = await text(page, '#last-verdict');
    assert(verdict.endsWith(`; the best was ${bestName} (${bestCaps.join(' ')})`), `the verdict "${verdict}"`);
    await page.waitForFunction(() => !document.getElementById('review-panel').hidden, { timeout: 30_000 });
    await page.waitForFunction(() => [...document.querySelectorAll('#review-table tbody tr')].every((r) => r.dataset.lost), { timeout: 30_000 });
    const review = await page.$$eval('#review-table tbody tr', (rows) => rows.map((r) => ({
      lost: r.dataset.lost, numbers: [...r.querySelectorAll('td.num')].map((td) => td.textContent),
    })));
    assertEqual(review.map((r) => r.lost), [nativeFraction(n)], 'the review\'s chance lost');
    assertEqual(review[0].numbers.slice(0, 2), [nativeFraction(n), '0/1'], 'the review\'s chances before and after');
    assert(review[0].numbers[2].startsWith(`${nativeFraction(n)} (`), `the review's chance lost "${review[0].numbers[2]}"`);
    await page.screenshot({ path: join(out, 'play-first-decision.png'), fullPage: true });
    assertEqual(page.problems, [], 'console');
    await page.close();

    // 2. The best choice is to hold first (119/120; the best placement 59/60): the hint
    //    says so, and holding loses nothing.
    page = await open(browser, base, emptyHoldStart(graphField, 'TLZIS', 'ZJIOLT'), { page: await context.newPage() });
    assertEqual(await graphAnswer(page), { engine: 'graph', partial: false }, 'the answer');
    assertEqual(await page.$eval('#graph-status', (n) => n.dataset.preparedFrom), 'file', 'what five unknown pieces read, read from the file the last page kept');
    form = await position(page);
    n = native(recommend, form);
    s = await shown(page);
    assertEqual(s.chance, nativeFraction(n), '#chance');
    assert(nativeHoldsFirst(n), 'the native best choice is to hold first');
    assertEqual([s.hold, s.keys], ['first', 'hold'], 'the hint');
    assertEqual(await text(page, '#hint-text'), `T into the hold slot first, then place once the next piece shows: ${frac({ probability: n.hold_first })}`, 'the hint\'s text');
    await page.keyboard.press('KeyC');
    await page.waitForFunction(() => document.getElementById('chance-lost').dataset.fraction, { timeout: 10_000 });
    assertEqual([await text(page, '#last-what'), await text(page, '#last-before'), await text(page, '#last-after'), await page.$eval('#chance-lost', (e) => e.dataset.fraction)],
      ['T into the hold slot', nativeFraction(n), frac({ probability: n.hold_first }), '0/1'], 'the last move: before, after, lost');
    assertEqual(await text(page, '#last-verdict'), 'the best move', 'the verdict');
    assertEqual(page.problems, [], 'console');
    await page.close();
    await context.close();
  });

  await check('Play: where the exact chance takes hours (the hold slot empty, one preview, six pieces unknown), an estimate: ≈ chance ± its error, its best choice as the hint, estimated chances in the last move', async () => {
    const field = encodeURIComponent(graphField).replaceAll('%2F', '/');
    const page = await open(browser, base, `play=1&seed=1&preview=1&kicks=srs&field=${field}&queue=LS&bag=OZIJT`);
    await page.waitForFunction(() => document.getElementById('graph-status').dataset.state === 'ready', { timeout: 30_000 });
    await page.waitForFunction(() => document.getElementById('chance').dataset.estimate === 'true', { timeout: 60_000, polling: 50 });
    const answer = await page.evaluate(() => window.pcPage.play.answers.get(window.pcPage.play.key).answer);
    assert(answer.estimate && answer.estimate.revealed >= 1 && answer.estimate.samples >= 2, `the estimate ${JSON.stringify(answer.estimate)}`);
    const pct = (p) => (p === 100 || p === 0 ? `${p}%` : `${p.toFixed(2)}%`);
    const s = await shown(page);
    assertEqual(s.chance, `≈${pct(answer.chance.percent)}`, '#chance');
    assertEqual(await text(page, '#play-percent'), `± ${answer.chance.std_error.toFixed(2)}`, 'its standard error');
    const status = await text(page, '#play-status');
    assert(status.startsWith('estimated in ') && status.includes(`over ${answer.estimate.samples} draws`), `status "${status}"`);
    // On a phone the estimate and its error show as on a desktop, and the page fits.
    await page.setViewport({ width: 360, height: 740 });
    await page.screenshot({ path: join(out, 'play-estimate-360.png') });
    assert(!await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth), 'the page fits 360 px');
    assertEqual(await text(page, '#chance'), s.chance, '#chance at 360 px');
    await page.setViewport({ width: 1440, height: 960 });
    const best = answer.moves[0];
    const holdFirst = !!answer.hold_first && answer.hold_first.percent > best.chance.percent;
    let after;
    if (holdFirst) {
      assertEqual({ keys: s.keys, hold: s.hold }, { keys: 'hold', hold: 'first' }, 'the hint: hold first');
      await page.keyboard.press('KeyC');
      after = answer.hold_first.percent;
    } else {
      assertEqual({ keys: s.keys, hold: s.hold }, { keys: best.keys, hold: String(best.hold) }, 'the hint is the best estimate');
      assert((await text(page, '#hint-text')).endsWith(`: ≈${pct(best.chance.percent)}`), 'the hint\'s chance');
      if (best.hold) await page.keyboard.press('KeyC');
      await press(page, best.keys);
      after = best.chance.percent;
    }
    await page.waitForFunction(() => document.getElementById('last-before').textContent.startsWith('≈'), { timeout: 10_000 });
    assertEqual([await text(page, '#last-before'), await text(page, '#last-after')],
      [`≈${pct(answer.chance.percent)}`, `≈${pct(after)}`], 'the last move: before and after, estimated');
    assertEqual(await text(page, '#chance-lost'), '?', 'no exact chance lost');
    assert((await text(page, '#last-verdict')).startsWith('estimated'), 'the verdict says estimated');
    await page.screenshot({ path: join(out, 'play-estimate.png'), fullPage: true });
    assertEqual(page.problems, [], 'console');
    await page.close();
  });

  await check('Play: without the graph the first decision with the hold slot empty is holding first only; turned on, the graph answers it in full', async () => {
    const page = await openApart(browser, base, emptyHoldStart(graphField, 'LSOLT', 'OZSIJ'),
      (p) => p.evaluateOnNewDocument(() => localStorage.setItem('pc-settings-v1', JSON.stringify({ graph: false }))));
    await page.waitForFunction(() => document.getElementById('graph-status').dataset.state === 'off', { timeout: 10_000 });
    await waitAnswer(page);
    const n = native(recommend, await position(page));
    const holdFirst = `${n.hold_first[0]}/${n.hold_first[1]}`;
    let s = await shown(page);
    assertEqual([s.chance, s.hold, s.keys], ['', 'first', 'hold'], 'the partial answer: no chance, hold first');
    const status = await text(page, '#play-status');
    assert(status.startsWith(`Hold first: ${holdFirst} = `) && status.includes('without the PC graph'), `status "${status}"`);
    // Turned on, the graph loads and the position is asked again: the full answer.
    await page.click('#graph-toggle');
    await page.waitForFunction((f) => document.getElementById('chance').textContent === f, { timeout: 30_000, polling: 50 }, nativeFraction(n));
    assertEqual(await page.$eval('#graph-status', (e) => e.dataset.state), 'ready', 'the graph');
    s = await shown(page);
    assertEqual({ keys: s.keys, hold: s.hold }, { keys: n.moves[0].path, hold: String(n.moves[0].hold) }, 'the hint');
    assert((await text(page, '#play-status')).includes('from the PC graph'), 'answered from the graph');
    assertEqual(page.problems, [], 'console');
    await page.browserContext().close();
  });


  await check('Play: a scripted keyboard player follows the hints through two PCs, every chance the native one', async () => {
    // From a position of the first PC, six previews: the first decision of the second PC
    // is quick without the full graph (three pieces unknown).
    const page = await open(browser, base, `play=1&seed=1&preview=6&${FIRST_PC}`);
    assertEqual(await page.evaluate(() => document.body.dataset.mode), 'play', 'data-mode');
    const log = { checked: 0, skipped: 0, chances: [] };
    let made = 0;
    for (let step = 0; step < 30 && made < 2; step++) {
      const did = await followHint(page, recommend, log);
      if (did.pc) made += 1;
      assertEqual(Number(await text(page, '#pc-count')), made, 'PCs counted');
    }
    assert(made >= 2, `${made} PCs in 30 decisions`);
    assert(log.skipped <= 2, `${log.skipped} positions right after a hold into the empty slot`);
    figures.play_two_pcs = { decisions: log.checked + log.skipped, chances: log.chances };
    await page.screenshot({ path: join(out, 'play-two-pcs.png'), fullPage: true });
    assertEqual(page.problems, [], 'console');
    await page.close();
  });

  await check('Play from here: a worse move shows the chance lost, undo restores the state, the hints make the PC', async () => {
    const page = await open(browser, base, 'field=####......&hold=O&queue=TSZLJI&bag=OTSZLJ&kicks=srs');
    await page.waitForFunction(() => ['done', 'error'].includes(document.body.dataset.state), { timeout: 60_000 });
    await page.click('#play-here');
    assertEqual(await page.evaluate(() => document.body.dataset.mode), 'play', 'data-mode');
    await waitAnswer(page);
    const form = await position(page);
    assertEqual([form.hold, form.queue, form.bag], ['O', 'TSZLJI', 'JLOSTZ'], 'the position of the form');
    const n = native(recommend, form);
    const best = nativeFraction(n);
    assertEqual(await text(page, '#chance'), best, '#chance');
    // A worse move that keeps a PC possible, without hold, by its keys.
    const frac = (m) => `${m.probability[0]}/${m.probability[1]}`;
    const worse = n.moves.find((m) => !m.hold && frac(m) !== best && m.probability[0] > 0);
    assert(worse, 'a worse move');
    const before = await snapshot(page);
    const [bestName, bestCaps] = [await hintName(page), await hintCaps(page)];
    await press(page, worse.path);
    await page.waitForFunction(() => document.getElementById('chance-lost').dataset.fraction, { timeout: 10_000 });
    const lost = await page.$eval('#chance-lost', (n) => n.dataset.fraction);
    assertEqual(lost, difference(best, frac(worse)), 'chance lost');
    // The best move as the hint named it, with the keys it showed (hold first).
    const verdict = await text(page, '#last-verdict');
    const bestSaid = `; the best was ${bestName} (${bestCaps.join(' ')})`;
    assert(verdict.endsWith(bestSaid), `the verdict "${verdict}" should end "${bestSaid}"`);
    assertEqual(await text(page, '#last-before'), best, 'chance before');
    assertEqual(await text(page, '#last-after'), frac(worse), 'chance after');
    figures.play_worse_move = { best, played: frac(worse), lost };
    await page.screenshot({ path: join(out, 'play-worse-move.png'), fullPage: true });
    // Undo: the exact state before, chance included.
    await page.keyboard.press('Backspace');
    await waitAnswer(page);
    assertEqual(await snapshot(page), before, 'the state after undo');
    // The hints make the PC.
    const log = { checked: 0, skipped: 0, chances: [] };
    let made = 0;
    for (let step = 0; step < 14 && made < 1; step++) {
      const did = await followHint(page, recommend, log);
      if (did.pc) made += 1;
    }
    assertEqual(Number(await text(page, '#pc-count')), 1, 'one PC');
    assertEqual(page.problems, [], 'console');
    await page.close();
  });

  await check('Play: settings survive a reload, and a rebound key works', async () => {
    // A browser context of its own: the settings stay in it.
    const page = await openApart(browser, base, `play=1&seed=3&${FIRST_PC}`);
    await waitAnswer(page);
    await page.click('#play-settings');
    await page.click('#keys-table button[data-action="hardDrop"][data-slot="0"]');
    await page.keyboard.press('KeyW');
    assertEqual(await text(page, '#keys-table button[data-action="hardDrop"][data-slot="0"]'), 'W', 'the new key');
    await page.click('#set-das', { clickCount: 3 });
    await page.type('#set-das', '120');
    await page.click('#set-sdf', { clickCount: 3 });
    await page.type('#set-sdf', '0');
    await page.click('#settings-done');
    await page.reload({ waitUntil: 'load' });
    await page.waitForFunction(() => document.body.dataset.state !== 'loading');
    await page.click('#play-settings');
    assertEqual(await text(page, '#keys-table button[data-action="hardDrop"][data-slot="0"]'), 'W', 'the key after a reload');
    assertEqual(await page.$eval('#set-das', (n) => n.value), '120', 'DAS after a reload');
    assertEqual(await page.$eval('#set-sdf', (n) => n.value), '0', 'soft drop after a reload');
    await page.click('#settings-done');
    await waitAnswer(page);
    const t = await turn(page);
    await page.keyboard.press('Space'); // no longer bound
    assertEqual(await turn(page), t, 'Space after rebinding');
    // Soft drop 0: straight down at once.
    await page.keyboard.press('ArrowDown');
    assertEqual(await page.$eval('#play-board', (n) => n.dataset.resting), '1', 'soft drop 0 drops to the bottom');
    await page.keyboard.press('KeyW');
    assertEqual(Number(await turn(page)), Number(t) + 1, 'W hard-drops');
    assertEqual(page.problems, [], 'console');
    await page.browserContext().close();
  });

  await check('Play: with gravity on, the piece falls and locks by itself', async () => {
    const page = await openApart(browser, base, `play=1&seed=3&${FIRST_PC}`, (p) => p.evaluateOnNewDocument(() => {
      localStorage.setItem('pc-settings-v1', JSON.stringify({ gravity: true, gravityMs: 20 }));
    }));
    assertEqual(await turn(page), '0', 'turn');
    // 20 rows at 20 ms a row, then 500 ms of lock delay.
    await page.waitForFunction(() => document.getElementById('play-panel').dataset.turn === '1', { timeout: 10_000 });
    const cells = JSON.parse(await page.$eval('#play-panel', (n) => n.dataset.lastCells));
    assertEqual(sortCells(cells), [[3, 1], [4, 1], [5, 1], [4, 2]], 'the T where gravity locked it (on the stack at column 3)');
    assertEqual(page.problems, [], 'console');
    await page.browserContext().close();
  });

  await check('Play: the hint shows its keys in the player\'s own bindings, and they play it', async () => {
    const keys = { hold: ['KeyV'], left: ['KeyJ'], right: ['KeyL'], hardDrop: ['KeyK'], cw: ['KeyI'], ccw: ['KeyU'] };
    const page = await openApart(browser, base, `play=1&seed=1&${FIRST_PC}`,
      (p) => p.evaluateOnNewDocument((k) => localStorage.setItem('pc-settings-v1', JSON.stringify({ keys: k })), keys));
    await waitAnswer(page);
    const s = await shown(page);
    assertEqual(s.hold, 'true', 'the best move holds (O from the hold slot)');
    const caps = await hintCaps(page);
    assertEqual(caps, expectedCaps(s.keys, s.hold, { ...DEFAULT_CAPS, hold: 'V', L: 'J', R: 'L', hd: 'K', cw: 'I', ccw: 'U' }), `hint caps of hold ${s.keys}`);
    // Pressing the keys the caps show plays the hinted move.
    const codeOf = { '←': 'ArrowLeft', '→': 'ArrowRight', '↑': 'ArrowUp', '↓': 'ArrowDown', Space: 'Space' };
    for (const cap of caps) await page.keyboard.press(codeOf[cap] ?? `Key${cap}`);
    const placed = JSON.parse(await page.$eval('#play-panel', (n) => n.dataset.lastCells));
    assertEqual(sortCells(placed), sortCells(s.cells), 'the caps place the hinted move');
    assertEqual(page.problems, [], 'console');
    await page.browserContext().close();
  });

  await check('Play: a key taken from another action moves, with a warning naming that action', async () => {
    const page = await openApart(browser, base, `play=1&seed=1&${FIRST_PC}`);
    await waitAnswer(page);
    await page.click('#play-settings');
    assert(await page.$eval('#key-warning', (n) => n.hidden), 'no warning before');
    const button = (action, slot) => `#keys-table button[data-action="${action}"][data-slot="${slot}"]`;
    // C, hold's first key, for rotating clockwise: hold keeps Shift.
    await page.click(button('cw', 1));
    await page.keyboard.press('KeyC');
    assert(await page.$eval('#key-warning', (n) => !n.hidden && n.offsetParent !== null), 'the warning is shown');
    assertEqual(await text(page, '#key-warning'), 'C was bound to Hold: it now does Rotate clockwise instead. Hold keeps Shift.', 'the warning');
    assertEqual([await text(page, button('cw', 1)), await text(page, button('hold', 0)), await text(page, button('hold', 1))], ['C', 'Shift', '—'], 'C moved from hold to rotate clockwise');
    await page.screenshot({ path: join(out, 'play-key-warning.png') });
    // H, the hint's only key, for rotating 180°: the hint has none left.
    await page.click(button('r180', 0));
    await page.keyboard.press('KeyH');
    assertEqual(await text(page, '#key-warning'), 'H was bound to Hint on/off: it now does Rotate 180° instead. Hint on/off has no key now: bind one to it.', 'the warning');
    // A key the action has already: no warning.
    await page.click(button('cw', 0));
    await page.keyboard.press('KeyC');
    assert(await page.$eval('#key-warning', (n) => n.hidden), 'no warning for a key of the same action');
    await page.click('#settings-done');
    // The hint's hold is Shift now (once the page has drawn it again); C rotates and holds
    // nothing.
    await page.waitForFunction(() => document.querySelector('#hint-caps kbd')?.textContent === 'Shift', { timeout: 5_000 })
      .catch(() => {});
    assertEqual((await hintCaps(page))[0], 'Shift', 'the hint\'s hold key');
    await page.keyboard.press('KeyC');
    assertEqual(await page.$eval('#play-board', (n) => n.dataset.piece.split(' ').slice(0, 2).join(' ')), 'T right', 'C rotates clockwise');
    assertEqual(await page.$eval('#play-hold', (n) => n.dataset.piece), 'O', 'C does not hold');
    assertEqual(page.problems, [], 'console');
    await page.browserContext().close();
  });

  await check('Play: a move has one name in the hint, the last move and the log', async () => {
    // S turned counter-clockwise (left) covers the cells of S right one column over: the
    // engine reports it as right, and so must every name of it.
    const page = await open(browser, base, 'play=1&seed=1&field=%23%23%23%23......&hold=O&queue=SZTLJI&bag=OTSZLJ');
    await waitAnswer(page);
    const [bestName, bestCaps] = [await hintName(page), await hintCaps(page)];
    await page.keyboard.press('KeyZ');
    await page.keyboard.press('Space');
    const cells = JSON.parse(await page.$eval('#play-panel', (e) => e.dataset.lastCells));
    const xs = cells.map(([x]) => x + 1);
    const name = `S right, columns ${Math.min(...xs)}–${Math.max(...xs)}`;
    assertEqual(await text(page, '#last-what'), name, 'the last move');
    assertEqual(await text(page, '#move-log li:first-child .what'), name, 'the log');
    await page.waitForFunction(() => document.getElementById('chance-lost').dataset.fraction, { timeout: 10_000 });
    const verdict = await text(page, '#last-verdict');
    const bestSaid = `; the best was ${bestName} (${bestCaps.join(' ')})`;
    assert(verdict.endsWith(bestSaid), `the verdict "${verdict}" should end "${bestSaid}"`);
    assertEqual(page.problems, [], 'console');
    await page.close();
  });

  await check('Play: New game and F2 choose the seed the same way, with the rules of the game', async () => {
    // The seeds the page draws, in order.
    const page = await openApart(browser, base, `play=1&seed=3&kicks=srs%2B&${FIRST_PC}`, (p) => p.evaluateOnNewDocument(() => {
      const seeds = [4242, 9191];
      crypto.getRandomValues = (a) => { a[0] = seeds.shift() ?? 1; return a; };
    }));
    const game = () => page.evaluate(() => ({
      seed: document.getElementById('play-seed').textContent,
      turn: document.getElementById('play-panel').dataset.turn,
      kicks: JSON.parse(document.getElementById('play-panel').dataset.form).kicks,
      link: new URLSearchParams(location.search).get('seed'),
    }));
    assertEqual(await game(), { seed: '3', turn: '0', kicks: 'srs+', link: '3' }, 'the game of the link');
    await page.click('#play-new');
    assertEqual(await game(), { seed: '4242', turn: '0', kicks: 'srs+', link: '4242' }, 'New game');
    await page.keyboard.press('F2');
    assertEqual(await game(), { seed: '9191', turn: '0', kicks: 'srs+', link: '9191' }, 'F2');
    assertEqual(page.problems, [], 'console');
    await page.browserContext().close();
  });

  await check('Play: a lost PC ends the game with a review brought into view (360 and 1280 px), worst first, and the game as a fumen', async () => {
    for (const [width, height] of [[360, 740], [1280, 800]]) await lostGame(browser, base, out, width, height, path);
  });

  await check('Play on a phone held sideways (740×360, touch): the field beside the chance, the hint and the pad, all in the first screen', async () => {
    const page = await open(browser, base, `play=1&seed=1&preview=6&${FIRST_PC}`, { width: 740, height: 360, touch: true });
    await waitAnswer(page);
    assertEqual(await firstScreenProblems(page), [], 'the first screen');
    const beside = await page.evaluate(() => {
      const board = document.getElementById('play-board').getBoundingClientRect();
      const pad = document.getElementById('pad-hold').getBoundingClientRect();
      return pad.left >= board.right;
    });
    assert(beside, 'the pad beside the field');
    await page.screenshot({ path: join(out, 'play-phone-landscape.png') });
    assertEqual(page.problems, [], 'console');
    await page.close();
  });

  await check('Play on a phone (360×740, touch): the field, the chance, the hint and the pad in the first screen; taps, swipes and the pad play the hints to a PC', async () => {
    const page = await open(browser, base, `play=1&seed=1&preview=6&${FIRST_PC}`, { width: 360, height: 740, touch: true });
    await waitAnswer(page);
    assertEqual(await firstScreenProblems(page), [], 'the first screen');
    await page.screenshot({ path: join(out, 'play-phone-360.png') });
    // A tap turns once (no click after it does anything), a drag moves a column per
    // column width and back, a pad button moves once.
    const piece = () => page.$eval('#play-board', (n) => n.dataset.piece);
    assertEqual(await piece(), 'T spawn 4 20', 'the piece');
    await swipe(page, 0, 0);
    assertEqual(await piece(), 'T right 4 20', 'a tap');
    await swipe(page, 2.5, 0);
    assertEqual(await piece(), 'T right 6 20', 'a drag of two columns and a half');
    await swipe(page, -1.5, 0);
    assertEqual(await piece(), 'T right 5 20', 'a drag back');
    await page.tap('#pad-ccw');
    await page.tap('#pad-left');
    assertEqual(await piece(), 'T spawn 4 20', 'the pad');
    // The hints, by touch, to a PC: each lands on the hinted cells and is named as the
    // hint named it; the page never scrolls.
    for (let step = 0; step < 12 && Number(await text(page, '#pc-count')) < 1; step++) {
      await waitAnswer(page);
      const s = await shown(page);
      const name = await hintName(page);
      assert(s.hold !== 'first', 'a hint to hold first');
      await touchKeys(page, `${s.hold === 'true' ? 'hold ' : ''}${s.keys}`);
      const placed = JSON.parse(await page.$eval('#play-panel', (n) => n.dataset.lastCells));
      assertEqual(sortCells(placed), sortCells(s.cells), `move ${step + 1} (${s.hold === 'true' ? 'hold ' : ''}${s.keys}) by touch`);
      assertEqual(await text(page, '#last-what'), name, 'the last move named as the hint named it');
      assertEqual(await page.evaluate(() => window.scrollY), 0, 'the page scrolled');
    }
    assertEqual(Number(await text(page, '#pc-count')), 1, 'a PC by touch');
    await waitAnswer(page);
    assertEqual(await firstScreenProblems(page), [], 'the first screen after the PC');
    await page.screenshot({ path: join(out, 'play-phone-360-full.png'), fullPage: true });
    assertEqual(page.problems, [], 'console');
    await page.close();
  });
}

/** A game that loses its PC, at this window size: the review, in view. */
async function lostGame(browser, base, out, width, height, path) {
  // The grace system field: the T hard-dropped from its spawn lands on the stack, above
  // the clear line.
  const page = await open(browser, base, 'play=1&seed=5&field=%23%23%23%23%23%23..../%23%23%23%23%23%23..../%23%23%23%23%23%23..../%23%23%23%23%23%23....&hold=I&queue=TJLOSZ&bag=I', { width, height });
  await waitAnswer(page);
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('Space'); // into the well, flat
  await waitAnswer(page);
  await page.keyboard.press('Space');
  await page.waitForFunction(() => !document.getElementById('review-panel').hidden, { timeout: 30_000 });
  // The page scrolls the review into view: its top at the top of the window, or the page
  // at its end when the review is shorter than the window.
  const inView = () => {
    const r = document.getElementById('review-panel').getBoundingClientRect();
    const end = window.scrollY + window.innerHeight >= document.documentElement.scrollHeight - 2;
    return r.top >= -2 && r.top < window.innerHeight && (r.top <= 2 || end);
  };
  await page.waitForFunction(inView, { timeout: 5_000, polling: 50 }).catch(async () => {
    const top = await page.$eval('#review-panel', (n) => Math.round(n.getBoundingClientRect().top));
    throw new Error(`at ${width} px the review is not in view: its top at ${top} px, the window ${height} px high`);
  });
  assertEqual(await page.$eval('#play-panel', (n) => n.dataset.over), 'lost', 'over');
  await page.waitForFunction(() => [...document.querySelectorAll('#review-table tbody tr')].every((r) => r.dataset.lost), { timeout: 30_000 });
  const rows = await page.$$eval('#review-table tbody tr', (r) => r.map((n) => ({ index: Number(n.dataset.index), lost: n.dataset.lost })));
  assertEqual(rows.length, 2, 'review rows');
  // Worst first.
  const value = (f) => Number(f.split('/')[0]) / Number(f.split('/')[1]);
  assert(value(rows[0].lost) >= value(rows[1].lost) && value(rows[0].lost) > 0, `review order ${JSON.stringify(rows)}`);
  const fumen = await page.$eval('#review-fumen', (n) => n.value);
  assert(fumen.startsWith('v115@'), `fumen ${fumen}`);
  assert((await page.$eval('#review-link', (n) => n.href)).endsWith(fumen), 'fumen link');
  // Each placement has the name the log gave it.
  const names = (selector) => page.$$eval(selector, (r) => Object.fromEntries(r.map((n) => [n.dataset.index, n.querySelector('.what').textContent])));
  assertEqual(await names('#review-table tbody tr'), await names('#move-log li'), 'the review names the moves as the log does');
  // Solutions for this PC: its start field and the queue the player had (I held, then the
  // pieces as they came), as the native path finds them for that one queue.
  const pcs = await page.$$eval('#review-pcs details', (d) => d.map((n) => n.dataset.pattern));
  assertEqual(pcs.length, 1, 'the PCs of the review');
  assert(pcs[0].startsWith('I,T,J,L,O,'), `the queue of the PC: ${pcs[0]}`);
  await page.click('#review-pcs details summary');
  await page.waitForFunction(() => document.querySelector('#review-pcs details[data-unique]'), { timeout: 60_000 });
  const field = '######..../######..../######..../######....';
  const expected = nativePath(path, field, pcs[0], join(out, 'path-native'));
  assert(expected.unique > 0, `native path ${JSON.stringify(expected)}`);
  assertEqual(await page.$eval('#review-pcs details', (n) => Number(n.dataset.unique)), expected.unique, 'solutions for this PC');
  assertEqual(await page.$$eval('#review-pcs .solution', (c) => c.length), Math.min(expected.unique, 48), 'their pictures');
  // Every column of the review in its box (cards at 360 px).
  assertEqual(await tableProblems(page, '#review-table'), [], `the review at ${width} px`);
  await page.evaluate(() => document.getElementById('review-panel').scrollIntoView({ block: 'start' }));
  await page.screenshot({ path: join(out, `play-review-table-${width}.png`) });
  await page.evaluate(() => document.getElementById('review-pcs').scrollIntoView({ block: 'center' }));
  await page.screenshot({ path: join(out, `play-review-${width}.png`) });
  // Undo takes the losing move back.
  await page.keyboard.press('Backspace');
  assertEqual(await page.$eval('#play-panel', (n) => n.dataset.over), '', 'not over after undo');
  assertEqual(page.problems, [], 'console');
  await page.close();
}
