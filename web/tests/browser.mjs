// Browser checks of the page in headless Chromium (web/test.sh runs this).
//
//   node tests/browser.mjs --url http://127.0.0.1:PORT/ --native native.json --out DIR [--figures native-long.json]
//
// --native: the `recommend` example's JSON for the 119/120 position; --out: where the
// screenshots and timings go; --figures: also solve the empty field with I held and JLOSTZ
// to the end and compare with that native JSON (slow: for the figures of web/README.md).
import puppeteer from 'puppeteer-core';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const args = Object.fromEntries(
  process.argv.slice(2).reduce((pairs, word, i, all) => (word.startsWith('--') ? [...pairs, [word.slice(2), all[i + 1]]] : pairs), []),
);
const base = args.url;
const out = args.out;
mkdirSync(out, { recursive: true });

const POSITION_119 = 'field=####......&hold=O&queue=TSZLJI&bag=OTSZLJ&kicks=srs';
const LONG = 'field=..........&hold=I&queue=JLOSTZ&kicks=srs';

let passed = 0;
let failed = 0;
const figures = {};

async function check(name, body) {
  const started = Date.now();
  try {
    await body();
    passed += 1;
    console.log(`ok   ${name} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  } catch (err) {
    failed += 1;
    console.log(`FAIL ${name}: ${err.message}`);
  }
}

function assert(condition, message) {
  if (!condition) throw new Error(message);
}

function assertEqual(actual, expected, what) {
  const a = JSON.stringify(actual);
  const e = JSON.stringify(expected);
  if (a !== e) throw new Error(`${what}: got ${a}, expected ${e}`);
}

const profile = mkdtempSync(join(tmpdir(), 'pc-web-chromium-'));
const browser = await puppeteer.launch({
  executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
  headless: true,
  userDataDir: profile,
  args: [
    '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run', '--disable-quic',
    '--disable-background-networking', '--disable-component-update', '--disable-sync',
    '--disable-default-apps', '--disable-extensions',
  ],
});

async function open(query = '') {
  const page = await browser.newPage();
  await page.setViewport({ width: 1440, height: 960 });
  const problems = [];
  page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
  page.on('console', (msg) => { if (msg.type() === 'error') problems.push(`console error: ${msg.text()}`); });
  page.problems = problems;
  await page.goto(`${base}${query ? `?${query}` : ''}`, { waitUntil: 'load' });
  await page.waitForFunction(() => document.body.dataset.state !== 'loading', { timeout: 30_000 });
  return page;
}

async function waitState(page, states, timeout = 120_000) {
  await page.waitForFunction((s) => s.includes(document.body.dataset.state), { timeout, polling: 50 }, states);
  return page.evaluate(() => document.body.dataset.state);
}

async function text(page, selector) {
  return page.$eval(selector, (n) => n.textContent.trim());
}

/** The ranking as the table shows it. */
async function tableMoves(page) {
  return page.$$eval('#moves tbody tr', (rows) => rows.map((r) => ({
    piece: r.dataset.piece,
    orientation: r.dataset.orientation,
    hold: r.dataset.hold === 'true',
    cells: JSON.parse(r.dataset.cells),
    chance: r.dataset.chance,
    keys: r.querySelector('.keys').dataset.keys,
  })));
}

/** The ranking of the `recommend` example's JSON, in the same form. */
function nativeMoves(json) {
  return json.moves.map((m) => ({
    piece: m.piece,
    orientation: m.orientation,
    hold: m.hold,
    cells: m.cells,
    chance: `${m.probability[0]}/${m.probability[1]}`,
    keys: m.path,
  }));
}

function sameRanking(shown, native) {
  const sortCells = (cells) => [...cells].sort((a, b) => a[1] - b[1] || a[0] - b[0]);
  assertEqual(shown.length, native.length, 'number of moves');
  shown.forEach((m, i) => {
    assertEqual({ ...m, cells: sortCells(m.cells) }, { ...native[i], cells: sortCells(native[i].cells) }, `move ${i + 1}`);
  });
}

/** Cells of the editor's field drawn with a move (the ghost overlay). */
async function ghostCells(page) {
  return page.$$eval('#board .cell.ghost', (cells) => cells.map((c) => [Number(c.dataset.x), Number(c.dataset.y)]).sort((a, b) => a[1] - b[1] || a[0] - b[0]));
}

async function cell(page, x, y) {
  return page.$(`#board .cell[data-x="${x}"][data-y="${y}"]`);
}

/** Sets up the 119/120 position with the mouse and keyboard, as a player would. */
async function enter119(page) {
  await page.click('#field-clear');
  // Drag along the bottom row from column 0 to column 3.
  const from = await (await cell(page, 0, 0)).boundingBox();
  const to = await (await cell(page, 3, 0)).boundingBox();
  await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
  await page.mouse.down();
  await page.mouse.move(to.x + to.width / 2, to.y + to.height / 2, { steps: 8 });
  await page.mouse.up();
  await page.click('#hold button[data-piece="O"]');
  await page.click('#queue', { clickCount: 3 });
  await page.keyboard.press('Backspace');
  await page.type('#queue', 'tszlji');
  await page.click('#bag-fresh');
  for (const p of 'OTSZLJ') await page.click(`#bag button[data-piece="${p}"]`);
  await page.select('#clear-line', '4');
  await page.select('#kicks', 'srs');
}

const native119 = JSON.parse(readFileSync(args.native, 'utf8'));

await check('a link solves 119/120 at once, as the native recommend ranks it', async () => {
  // The field as the issue writes it: a raw '#' starts the fragment; the page reads it all.
  const page = await open(POSITION_119);
  const state = await waitState(page, ['done', 'error']);
  assert(state === 'done', `state ${state}: ${await text(page, '#error')}`);
  assertEqual(await text(page, '#chance'), '119/120', '#chance');
  assertEqual(native119.probability, [119, 120], 'native chance');
  sameRanking(await tableMoves(page), nativeMoves(native119));
  figures.load_ms = Number(await page.$eval('#load-info', (n) => n.dataset.ms));
  figures.wasm_bytes = Number(await page.$eval('#load-info', (n) => n.dataset.bytes));
  figures.solve_119_ms = Number(await page.$eval('#status', (n) => n.dataset.ms));
  figures.native_119_ms = native119.elapsed_ms;
  // The address bar holds the share link, '#' escaped.
  const url = await page.evaluate(() => location.search);
  assertEqual(url, '?field=%23%23%23%23......&hold=O&queue=TSZLJI&bag=JLOSTZ&kicks=srs', 'link');
  // The best move is drawn on the field; choosing another draws that one.
  const shown = await tableMoves(page);
  const sortCells = (cells) => [...cells].sort((a, b) => a[1] - b[1] || a[0] - b[0]);
  assertEqual(await ghostCells(page), sortCells(shown[0].cells), 'the best move on the field');
  await page.click('#moves tbody tr:nth-child(5)');
  assertEqual(await ghostCells(page), sortCells(shown[4].cells), 'the fifth move on the field');
  // The best line: 9 placements and the cleared field, with a fumen link.
  assertEqual(await text(page, '#line-page'), '1 / 10', 'line page');
  for (let i = 0; i < 9; i++) await page.click('#line-next');
  assertEqual(await text(page, '#line-page'), '10 / 10', 'last line page');
  assertEqual(await text(page, '#line-text'), 'Perfect clear.', 'last page text');
  assertEqual(await page.$$eval('#line-board .cell.filled', (c) => c.length), 0, 'cleared field');
  await page.click('#line-prev');
  assert((await page.$$eval('#line-board .cell.ghost', (c) => c.length)) === 4, 'a piece on page 9');
  const link = await page.$eval('#line-link', (a) => a.href);
  assert(/\?v115@/.test(link), `fumen link ${link}`);
  await page.click('#moves tbody tr:nth-child(1)');
  await page.screenshot({ path: join(out, 'page-119.png'), fullPage: true });
  assertEqual(page.problems, [], 'console');
  await page.close();
});

await check('the same position entered by mouse and keyboard', async () => {
  const page = await open();
  await enter119(page);
  assertEqual(await page.$$eval('#board .cell.filled', (c) => c.map((n) => [n.dataset.x, n.dataset.y].join())), ['0,0', '1,0', '2,0', '3,0'], 'dragged cells');
  await page.click('#solve');
  const state = await waitState(page, ['done', 'error']);
  assert(state === 'done', `state ${state}: ${await text(page, '#error')}`);
  assertEqual(await text(page, '#chance'), '119/120', '#chance');
  sameRanking(await tableMoves(page), nativeMoves(native119));
  await page.close();
});

await check('a bad fumen shows an error', async () => {
  const page = await open();
  await page.type('#fumen-input', 'v115@9gF8DeF8!eF8DeF8NeAgH');
  await page.click('#fumen-load');
  await waitState(page, ['error'], 5_000);
  const error = await text(page, '#error');
  assert(error.startsWith('fumen: invalid character'), `error: ${error}`);
  assert(await page.$eval('#error', (n) => !n.hidden), 'error hidden');
  assert(!(await page.$eval('body', (b) => b.classList.contains('busy'))), 'spinner on');
  await page.screenshot({ path: join(out, 'page-error.png'), fullPage: true });
  // A good fumen loads its field.
  await page.click('#fumen-input', { clickCount: 3 });
  await page.type('#fumen-input', 'v115@9gF8DeF8DeF8DeF8NeAgH');
  await page.click('#fumen-load');
  assert(await page.$eval('#error', (n) => n.hidden), 'error still shown');
  assertEqual(await page.$$eval('#board .cell.filled', (c) => c.length), 24, 'fumen field cells');
  assertEqual(page.problems, [], 'console');
  await page.close();
});

await check('a queue that contradicts the bag, and a field without a PC, are messages', async () => {
  let page = await open('field=..........&hold=I&queue=TSZLJI&bag=ISZLJO');
  await waitState(page, ['error'], 5_000);
  let error = await text(page, '#error');
  assert(error.includes('contradicts the bag state'), `error: ${error}`);
  await page.close();
  page = await open('field=%23%23%23.......&queue=T');
  await waitState(page, ['error'], 5_000);
  error = await text(page, '#error');
  assert(error.includes('not a multiple of 4'), `error: ${error}`);
  await page.close();
  page = await open('field=..........&queue=T&kicks=tgm');
  await waitState(page, ['error'], 5_000);
  error = await text(page, '#error');
  assert(error.startsWith('kicks: "tgm" is not one of'), `error: ${error}`);
  await page.close();
});

/** The threads of this test's Chromium (the processes started with its profile folder). */
function chromiumThreads() {
  const threads = [];
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      if (!readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(profile)) continue;
      for (const tid of readdirSync(`/proc/${pid}/task`)) {
        const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
        const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        threads.push({ id: `${pid}/${tid}`, name, cpu: (Number(fields[11]) + Number(fields[12])) / 100 });
      }
    } catch (_) {
      // the process or thread ended
    }
  }
  return threads;
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

await check('Cancel stops a long solve and the page stays usable', async () => {
  const page = await open(LONG);
  await waitState(page, ['solving'], 10_000);
  // The page keeps working while the worker solves: the elapsed time moves on.
  await page.waitForFunction(() => /Solving… [1-9]/.test(document.getElementById('status').textContent), { timeout: 10_000 });
  const before = await text(page, '#status');
  // The solve's thread: the worker thread that uses the CPU.
  const start = new Map(chromiumThreads().map((t) => [t.id, t.cpu]));
  await sleep(1000);
  assert((await text(page, '#status')) !== before, 'the elapsed time stopped');
  const [solver] = chromiumThreads()
    .filter((t) => t.name.startsWith('DedicatedWorker'))
    .map((t) => ({ ...t, used: t.cpu - (start.get(t.id) ?? t.cpu) }))
    .sort((a, b) => b.used - a.used);
  assert(solver && solver.used > 0.05, `no worker thread is solving: ${JSON.stringify(solver)}`);
  assertEqual(page.workers().length, 1, 'workers while solving');
  const clicked = Date.now();
  await page.click('#cancel');
  await waitState(page, ['cancelled'], 2_000);
  figures.cancel_ms = Date.now() - clicked;
  assert((await text(page, '#status')).startsWith('Cancelled after'), `status: ${await text(page, '#status')}`);
  assert(await page.$eval('#cancel', (n) => n.hidden), 'Cancel still shown');
  assert(!(await page.$eval('#solve', (n) => n.disabled)), 'Solve disabled');
  assert(!(await page.$eval('body', (b) => b.classList.contains('busy'))), 'spinner on');
  assertEqual(await text(page, '#chance'), '', '#chance after cancel');
  // The work really stops: the solving thread ends. terminate() interrupts a busy worker
  // after Chromium's forcible-termination delay (2 s, WorkerThread::Terminate), so poll.
  let stoppedMs = null;
  let last = solver.cpu;
  let still = 0;
  while (Date.now() - clicked < 6_000) {
    await sleep(50);
    const now = chromiumThreads().find((t) => t.id === solver.id);
    still = now && now.cpu > last ? 0 : still + 1;
    if (now) last = now.cpu;
    if (!now || still >= 6) {
      stoppedMs = Date.now() - clicked - (now ? 300 : 0);
      break;
    }
  }
  assert(stoppedMs !== null, 'the solving thread was still busy 6 s after Cancel');
  figures.solver_thread_cpu_s = Number(solver.used.toFixed(2));
  figures.cancel_stopped_ms = stoppedMs;
  // And nothing else of Chromium keeps working.
  const idleFrom = chromiumThreads().reduce((sum, t) => sum + t.cpu, 0);
  await sleep(1000);
  const idle = chromiumThreads().reduce((sum, t) => sum + t.cpu, 0) - idleFrom;
  figures.cpu_after_stop_s = Number(idle.toFixed(2));
  assert(idle < 0.2, `${idle.toFixed(2)} s of CPU in the second after the work stopped`);
  await page.screenshot({ path: join(out, 'page-cancelled.png'), fullPage: true });
  // A fresh worker answers the next solve.
  await enter119(page);
  await page.click('#solve');
  const state = await waitState(page, ['done', 'error']);
  assert(state === 'done', `state ${state}: ${await text(page, '#error')}`);
  assertEqual(await text(page, '#chance'), '119/120', '#chance after cancel');
  assertEqual(page.workers().length, 1, 'workers after the next solve');
  assertEqual(page.problems, [], 'console');
  await page.close();
});

if (args.figures) {
  const nativeLong = JSON.parse(readFileSync(args.figures, 'utf8'));
  await check('figures: the empty field with I held and JLOSTZ, to the end', async () => {
    const page = await open(LONG);
    const state = await waitState(page, ['done', 'error'], 600_000);
    assert(state === 'done', `state ${state}: ${await text(page, '#error')}`);
    assertEqual(await text(page, '#chance'), `${nativeLong.probability[0]}/${nativeLong.probability[1]}`, '#chance');
    sameRanking(await tableMoves(page), nativeMoves(nativeLong));
    figures.solve_long_ms = Number(await page.$eval('#status', (n) => n.dataset.ms));
    figures.wasm_memory_long_mib = Math.round(Number(await page.$eval('#status', (n) => n.dataset.memory)) / 2 ** 20);
    figures.native_long_ms = nativeLong.elapsed_ms;
    await page.screenshot({ path: join(out, 'page-long.png'), fullPage: true });
    await page.close();
  });
}

await browser.close();
rmSync(profile, { recursive: true, force: true });
writeFileSync(join(out, 'figures.json'), `${JSON.stringify(figures, null, 2)}\n`);
console.log(`figures: ${JSON.stringify(figures)}`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
