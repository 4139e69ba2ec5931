// Browser checks of the page in headless Chromium (web/test.sh runs this).
//
//   node tests/browser.mjs --url http://127.0.0.1:PORT/ --native native.json --recommend BIN
//        --path BIN --out DIR --server-log FILE --graph-field ROWS [--figures native-long.json]
//
// --native: the `recommend` example's JSON for the 119/120 position; --recommend: the
// example's binary, run for every position Play mode reaches; --path: the `path` example's
// binary, for the solutions of a pattern; --out: where the
// screenshots and timings go; --server-log: the test server's log (requests are counted
// from it); --graph-field: the start field of the small graph the site serves as
// graphs/srs-softdrop (and, damaged, under damaged/); --figures: also solve the empty field
// with I held and JLOSTZ to the end and compare with that native JSON (slow).
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  alerts, assert, assertEqual, check, figures, launch, native, nativeFraction, nativePath, open, results, sleep, tableProblems,
  text, waitState,
} from './lib.mjs';
import { playChecks } from './play.mjs';

const args = Object.fromEntries(
  process.argv.slice(2).reduce((pairs, word, i, all) => (word.startsWith('--') ? [...pairs, [word.slice(2), all[i + 1]]] : pairs), []),
);
const base = args.url;
const out = args.out;

const POSITION_119 = 'field=####......&hold=O&queue=TSZLJI&bag=OTSZLJ&kicks=srs';
const LONG = 'field=..........&hold=I&queue=JLOSTZ&kicks=srs';

const browser = await launch();
const profile = browser.profile;

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

function sameRanking(shown, expected) {
  const sortCells = (cells) => [...cells].sort((a, b) => a[1] - b[1] || a[0] - b[0]);
  assertEqual(shown.length, expected.length, 'number of moves');
  shown.forEach((m, i) => {
    assertEqual({ ...m, cells: sortCells(m.cells) }, { ...expected[i], cells: sortCells(expected[i].cells) }, `move ${i + 1}`);
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
const openPage = (query, options) => open(browser, base, query, options);

// --- analysis mode ------------------------------------------------------------------------------

await check('a link solves 119/120 at once, as the native recommend ranks it', async () => {
  // The field as the issue writes it: a raw '#' starts the fragment; the page reads it all.
  const page = await openPage(POSITION_119);
  const state = await waitState(page, ['done', 'error']);
  assert(state === 'done', `state ${state}: ${await alerts(page)}`);
  assertEqual(await text(page, '#chance'), '119/120', '#chance');
  assertEqual(await page.evaluate(() => document.body.dataset.mode), 'analysis', 'data-mode');
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
  // The answer is marked stale the moment the position changes, and is not drawn as current.
  assertEqual(await page.$eval('#result-panel', (n) => n.dataset.stale), 'false', 'fresh answer');
  await page.click('#queue', { clickCount: 3 });
  await page.type('#queue', 'J');
  assertEqual(await page.$eval('#result-panel', (n) => n.dataset.stale), 'true', 'stale after an edit');
  assert(await page.$eval('#stale-note', (n) => !n.hidden), 'the stale note');
  assertEqual(await ghostCells(page), [], 'no move drawn for another position');
  await page.screenshot({ path: join(out, 'page-stale.png'), fullPage: true });
  assertEqual(page.problems, [], 'console');
  await page.close();
});

await check('an answer arriving after the position changed is marked stale', async () => {
  const page = await openPage(POSITION_119);
  await waitState(page, ['done']);
  // Solve with I held, and hold T while it runs: the answer is for I.
  await page.click('#hold button[data-piece="I"]');
  await page.click('#solve');
  await page.click('#hold button[data-piece="T"]');
  const state = await waitState(page, ['done', 'error']);
  assertEqual(state, 'done', 'solved');
  assertEqual(await page.$eval('#result-panel', (n) => n.dataset.stale), 'true', 'the late answer is stale');
  assert(await page.$eval('#stale-note', (n) => !n.hidden), 'the stale note');
  assertEqual(await ghostCells(page), [], 'no move drawn for another position');
  // Back to the position it answers: current again.
  await page.click('#hold button[data-piece="I"]');
  assertEqual(await page.$eval('#result-panel', (n) => n.dataset.stale), 'false', 'current again');
  await page.close();
});

await check('the same position entered by mouse and keyboard', async () => {
  const page = await openPage();
  await enter119(page);
  assertEqual(await page.$$eval('#board .cell.filled', (c) => c.map((n) => [n.dataset.x, n.dataset.y].join())), ['0,0', '1,0', '2,0', '3,0'], 'dragged cells');
  await page.click('#solve');
  const state = await waitState(page, ['done', 'error']);
  assert(state === 'done', `state ${state}: ${await alerts(page)}`);
  assertEqual(await text(page, '#chance'), '119/120', '#chance');
  sameRanking(await tableMoves(page), nativeMoves(native119));
  await page.close();
});

await check('a bad fumen shows an error', async () => {
  const page = await openPage();
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

await check('a queue that contradicts the bag, a field without a PC, a cell above the clear line are messages', async () => {
  const cases = [
    ['field=..........&hold=I&queue=TSZLJI&bag=ISZLJO', 'contradicts the bag state'],
    ['field=%23%23%23.......&queue=T', 'not a multiple of 4'],
    // Rows as the editor numbers them: from 1 at the bottom.
    ['field=%23........./........../........../........../..........&queue=T', 'field: row 5 (counting from 1 at the bottom) has a filled cell'],
  ];
  for (const [query, message] of cases) {
    const page = await openPage(query);
    await waitState(page, ['error'], 5_000);
    const error = (await alerts(page)).join(' ');
    assert(error.includes(message), `${query}: ${error}`);
    await page.close();
  }
});

// Every link parameter is checked with a message that names it; the others stay, and the
// page stays usable (a quick position: the grace system field, T then five previews).
await check('every bad link parameter gives its message, leaves the others, and the page stays usable', async () => {
  const good = 'field=%23%23%23%23%23%23..../%23%23%23%23%23%23..../%23%23%23%23%23%23..../%23%23%23%23%23%23....&queue=TIJLOS&bag=Z';
  const cases = [
    ['hold=X', "link: hold: column 1: 'X' is not a piece"],
    ['hold=OO', 'link: hold: one piece or none, not 2 pieces'],
    ['fumen=v115@9gF8DeF8DeF8DeF8NeAgH', 'link: field: the link gives the field already (fumen=…): give the field or a fumen, not both'],
    ['kicks=tgm', 'link: kicks: "tgm" is not one of'],
    ['drop=sonic', 'link: drop: "sonic" is not one of softdrop, harddrop'],
    ['clear=9', 'link: clear: "9" is not a clear line'],
    ['two=maybe', 'link: two: "maybe" is not 1 or 0'],
    ['bag=TT', 'link: bag: column 2: T is already in the set'],
    ['preview=9', 'link: preview: "9" is not a preview length'],
    ['seed=abc', 'link: seed: "abc" is not a seed'],
    ['play=maybe', 'link: play: "maybe" is not 1 or 0'],
    ['queu=TSZ', 'link: queu: the page does not know this parameter'],
    ['clear=%zz', "link: clear: '%' at character 1 is not followed by two hex digits"],
  ];
  for (const [bad, message] of cases) {
    // The bad parameter first: the good ones after it are still read.
    const page = await openPage(`${bad}&${good}`);
    await waitState(page, ['error'], 10_000);
    const shown = (await alerts(page)).join(' ');
    assert(shown.includes(message), `${bad}: ${shown}`);
    assertEqual(await page.$eval('#queue', (n) => n.value), 'TIJLOS', `${bad}: the queue stays`);
    assertEqual(await page.$$eval('#board .cell.filled', (c) => c.length), 24, `${bad}: the field stays`);
    if (bad === cases[0][0] || bad === cases[cases.length - 1][0]) {
      await page.click('#solve');
      const state = await waitState(page, ['done', 'error'], 30_000);
      assertEqual(state, 'done', `${bad}: solving after the message`);
      assertEqual(await text(page, '#chance'), '1/1', `${bad}: the chance`);
    }
    assertEqual(page.problems, [], 'console');
    await page.close();
  }
  // A fumen that does not decode, alone: its message, and the queue and hold stay.
  const page = await openPage('fumen=v115@9gF8DeF8!eF8DeF8NeAgH&hold=i&queue=tszlji&kicks=SRS');
  await waitState(page, ['error'], 10_000);
  const shown = (await alerts(page)).join(' ');
  assert(shown.includes("link: fumen: invalid character '!'"), shown);
  assertEqual([await page.$eval('#queue', (n) => n.value), await page.$eval('#kicks', (n) => n.value)], ['TSZLJI', 'srs'], 'queue and kicks (any case)');
  assertEqual(await page.$eval('#hold button[aria-pressed="true"]', (n) => n.dataset.piece), 'I', 'hold (any case)');
  // Bad parameters of a Play link: the game still starts.
  const play = await openPage('play=1&seed=12&preview=0&clear=2&queu=1');
  await play.waitForFunction(() => document.body.dataset.mode === 'play');
  const playShown = (await alerts(play)).join(' ');
  assert(playShown.includes('link: preview: "0" is not a preview length') && playShown.includes('link: queu:'), playShown);
  await play.waitForFunction(() => document.getElementById('chance').dataset.turn === '0', { timeout: 60_000 });
  assertEqual(play.problems, [], 'console');
  await play.close();
  await page.close();
});

// --- the PC graph ------------------------------------------------------------------------------

/** GET requests of a path in the test server's log. */
function requests(path) {
  return readFileSync(args['server-log'], 'utf8').split('\n').filter((l) => l.includes(`"GET ${path}`)).length;
}

await check('the page fetches the graph, caches it, answers from it as without it, and refuses a damaged one', async () => {
  const field = args['graph-field'];
  const rows = encodeURIComponent(field).replaceAll('%2F', '/');
  const query = `field=${rows}&hold=I&queue=OTSZLJ&bag=I&kicks=srs`;
  const served = '/graphs/srs-softdrop.pcgraph.zst';
  const before = requests(served);
  const modules = requests('/pc_web.wasm');
  const context = await browser.createBrowserContext();
  let page = await context.newPage();
  page = await open(browser, base, query, { page });
  // The page preloads the module, and compileModule's fetch takes that download.
  assertEqual(requests('/pc_web.wasm') - modules, 1, 'downloads of the module on a first visit');
  await page.waitForFunction(() => document.getElementById('graph-status').dataset.state === 'ready', { timeout: 30_000 });
  let state = await waitState(page, ['done', 'error']);
  assertEqual(state, 'done', 'solved');
  assertEqual(requests(served) - before, 1, 'downloads of the graph');
  assertEqual(await page.$eval('#status', (n) => n.dataset.engine), 'graph', 'the engine');
  // The worker read the download into a buffer of its own, and a worker of its own kept it.
  const { reader, keeper } = await page.evaluate(() => window.pcPage.solver.graph);
  assertEqual([reader, keeper], ['byob', 'worker'], 'the download read into one buffer, kept by a worker');
  const form = { field, clear_line: 4, hold: 'I', queue: 'OTSZLJ', bag: 'I', kicks: 'srs' };
  const withoutGraph = native(args.recommend, form);
  assert(withoutGraph.engine !== 'graph', `native engine ${withoutGraph.engine}`);
  sameRanking(await tableMoves(page), nativeMoves(withoutGraph));
  assertEqual(await text(page, '#chance'), nativeFraction(withoutGraph), '#chance');
  figures.small_graph_load_ms = Number(await page.$eval('#graph-status', (n) => n.dataset.ms));
  await page.screenshot({ path: join(out, 'page-graph.png'), fullPage: true });
  const entry = () => page.evaluate(async () => {
    const cache = await caches.open('pc-graphs');
    const [request] = await cache.keys();
    const response = await cache.match(request);
    const bytes = new Uint8Array(await response.arrayBuffer());
    return {
      url: request.url, length: bytes.length, coding: response.headers.get('x-pc-coding'),
      said: Number(response.headers.get('x-pc-bytes')), magic: String.fromCharCode(...bytes.slice(0, 8)),
    };
  });
  // The cache keeps the download as it came.
  const download = await entry();
  assertEqual([download.coding, download.magic.slice(0, 4)], ['zstd', '(\u00b5/\u00fd'], 'the cache keeps the download (a zstd frame)');
  // Once the first answer is out, the browser keeps the graph laid out plainly too (what
  // loads fastest), in the origin private file system, whole under its final name.
  await page.waitForFunction(() => document.getElementById('graph-status').dataset.cached === 'plain', { timeout: 30_000 });
  const plainFiles = () => page.evaluate(async () => {
    const folder = await (await navigator.storage.getDirectory()).getDirectoryHandle('pc-graphs');
    const files = [];
    for await (const [name, handle] of folder.entries()) {
      const bytes = new Uint8Array(await (await handle.getFile()).arrayBuffer());
      files.push({ name, length: bytes.length, magic: String.fromCharCode(...bytes.slice(0, 8)) });
    }
    return files;
  });
  // Beside it, once taken from the site, what the walk of five unknown pieces reads.
  await page.waitForFunction(() => document.getElementById('graph-status').dataset.preparedKept, { timeout: 30_000 });
  const files = await plainFiles();
  const plain = files.find((f) => f.name.endsWith('.plain'));
  const five = files.find((f) => f.name.endsWith('.five'));
  assertEqual(files.length, 2, `the plain file and the five-unknown file, no partial one: ${JSON.stringify(files)}`);
  assert(plain?.name.startsWith('srs-softdrop.pcgraph.zst.'), `plain file ${plain?.name}`);
  assertEqual(plain.magic, 'PCGRAPH\0', 'the plain layout');
  // (Taken from the site; a renewed worker may have read it back from the file since.)
  assertEqual([five?.magic, await page.$eval('#graph-status', (n) => n.dataset.preparedError)], ['PCPREP5\0', ''], 'what five unknown pieces read, kept');
  assertEqual((await entry()).coding, 'zstd', 'the cache still keeps the download');
  // Then a fresh worker reads the plain file in the place of the one that read the
  // download (a module's memory never shrinks), and the page answers from it.
  await page.waitForFunction(() => window.pcPage.solver.graph.renewed, { timeout: 30_000 });
  const renewed = await page.evaluate(() => window.pcPage.solver.graph);
  assertEqual([renewed.state, renewed.source, renewed.renewed.source], ['ready', 'download', 'plain'], 'renewed from the plain file');
  const again = await page.evaluate(async (f) => (await window.pcPage.solver.solve(f, { key: 'renewed' })).answer, form);
  assertEqual([again.engine, again.chance?.fraction], ['graph', nativeFraction(withoutGraph)], 'the renewed worker answers from the graph');
  // A second visit reads the plain file: no request.
  await page.reload({ waitUntil: 'load' });
  await page.waitForFunction(() => document.getElementById('graph-status').dataset.state === 'ready', { timeout: 30_000 });
  assertEqual(await page.evaluate(() => window.pcPage.solver.graph.source), 'plain', 'from the plain file');
  assertEqual(await page.$eval('#graph-status', (n) => n.dataset.cached), 'plain', 'data-cached of a plain load');
  state = await waitState(page, ['done', 'error']);
  assertEqual(await page.$eval('#status', (n) => n.dataset.engine), 'graph', 'the engine after a reload');
  assertEqual(requests(served) - before, 1, 'downloads after a reload');
  sameRanking(await tableMoves(page), nativeMoves(withoutGraph));
  // The plain file damaged: refused and deleted, read from the cached download, written again.
  await page.evaluate(async (name) => {
    const folder = await (await navigator.storage.getDirectory()).getDirectoryHandle('pc-graphs');
    const handle = await folder.getFileHandle(name);
    const bytes = new Uint8Array(await (await handle.getFile()).arrayBuffer());
    bytes[bytes.length >> 1] ^= 0x20;
    const writable = await handle.createWritable();
    await writable.write(bytes);
    await writable.close();
  }, plain.name);
  await page.reload({ waitUntil: 'load' });
  await page.waitForFunction(() => document.getElementById('graph-status').dataset.state === 'ready', { timeout: 30_000 });
  const damaged = await page.evaluate(() => window.pcPage.solver.graph);
  assertEqual(damaged.source, 'cache', 'read from the cached download');
  assert(damaged.attempts.some((a) => a.source === 'plain' && a.error.includes('damaged')), `attempts ${JSON.stringify(damaged.attempts)}`);
  assertEqual(requests(served) - before, 1, 'downloads after a damaged plain file');
  state = await waitState(page, ['done', 'error']);
  assertEqual(await page.$eval('#status', (n) => n.dataset.engine), 'graph', 'the engine after the damaged plain file');
  await page.waitForFunction(() => document.getElementById('graph-status').dataset.cached === 'plain', { timeout: 30_000 });
  assertEqual((await plainFiles()).map((f) => f.magic).sort(), ['PCGRAPH\0', 'PCPREP5\0'], 'the plain file written again, the five-unknown file kept');
  // (The renewed worker reads it, holding it meanwhile.)
  await page.waitForFunction(() => window.pcPage.solver.graph.renewed, { timeout: 30_000 });
  // The cached download damaged too: refused, downloaded once more, answered from it.
  await page.evaluate(async (url, name) => {
    const cache = await caches.open('pc-graphs');
    const response = await cache.match(url);
    const headers = Object.fromEntries(response.headers);
    const bytes = new Uint8Array(await response.arrayBuffer());
    bytes[bytes.length >> 1] ^= 0x20;
    await cache.put(url, new Response(bytes, { headers }));
    const folder = await (await navigator.storage.getDirectory()).getDirectoryHandle('pc-graphs');
    await folder.removeEntry(name);
  }, download.url, plain.name);
  await page.reload({ waitUntil: 'load' });
  await page.waitForFunction(() => document.getElementById('graph-status').dataset.state === 'ready', { timeout: 30_000 });
  assertEqual(await page.$eval('#graph-status', (n) => n.dataset.fromCache), 'false', 'downloaded again');
  assertEqual(requests(served) - before, 2, 'downloads after a damaged cache');
  state = await waitState(page, ['done', 'error']);
  assertEqual(await page.$eval('#status', (n) => n.dataset.engine), 'graph', 'the engine after the damaged cache');
  assertEqual(page.problems, [], 'console');
  await page.close();
  await context.close();

  // The damaged site (damaged/: the same page, its graph with one byte changed): refused
  // with a message, dropped from the cache and fetched once more, then answered without it.
  const bad = '/damaged/graphs/srs-softdrop.pcgraph.zst';
  const badBefore = requests(bad);
  const context2 = await browser.createBrowserContext();
  page = await context2.newPage();
  page = await open(browser, `${base}damaged/`, query, { page });
  await page.waitForFunction(() => document.getElementById('graph-status').dataset.state === 'failed', { timeout: 30_000 });
  const message = await text(page, '#graph-text');
  assert(message.includes('graph: the graph file is damaged'), `message: ${message}`);
  assert((await alerts(page)).some((a) => a.includes('graph: the graph file is damaged')), 'the message is an alert');
  assertEqual(requests(bad) - badBefore, 2, 'a damaged graph is fetched once more');
  const cached = await page.evaluate(async () => (await (await caches.open('pc-graphs')).keys()).map((r) => r.url));
  assertEqual(cached, [], 'nothing damaged kept in the cache');
  state = await waitState(page, ['done', 'error']);
  assertEqual(state, 'done', 'answered without the graph');
  assert((await page.$eval('#status', (n) => n.dataset.engine)) !== 'graph', 'not from the graph');
  assertEqual(await text(page, '#chance'), nativeFraction(withoutGraph), '#chance without the graph');
  await page.screenshot({ path: join(out, 'page-graph-damaged.png'), fullPage: true });
  await page.close();
  await context2.close();
});

await check('keeper.js writes a cache entry as its bytes come, whole or not at all', async () => {
  const page = await open(browser, base, '');
  const got = await page.evaluate(async () => {
    const { keeper } = await import('./keeper.js');
    const bytes = new Uint8Array(300_000).map((_, i) => (i * 7919) % 251);
    const write = async (key, abort) => {
      const entry = keeper({ cache: 'pc-test', key, headers: { 'x-pc-coding': 'zstd' } });
      for (let at = 0; at < bytes.length; at += 70_000) entry.add(bytes.slice(at, at + 70_000));
      if (abort) entry.abort('the module refused it');
      else entry.end();
      return entry.stored;
    };
    const whole = await write(`${location.origin}/test-whole`, false);
    const aborted = await write(`${location.origin}/test-aborted`, true);
    const cache = await caches.open('pc-test');
    const kept = await cache.match(`${location.origin}/test-whole`);
    const back = new Uint8Array(await kept.arrayBuffer());
    const none = await cache.match(`${location.origin}/test-aborted`);
    await caches.delete('pc-test');
    return {
      whole, aborted, coding: kept.headers.get('x-pc-coding'), none: none === undefined,
      same: back.length === bytes.length && back.every((b, i) => b === bytes[i]),
    };
  });
  assertEqual(got, { whole: null, aborted: 'the module refused it', coding: 'zstd', none: true, same: true }, 'the entries');
  assertEqual(page.problems, [], 'console');
  await page.close();
});

// --- Play mode -----------------------------------------------------------------------------------

await playChecks({
  browser, base, recommend: args.recommend, path: args.path, out, graphField: args['graph-field'],
});

// --- layout ----------------------------------------------------------------------------------------

/** Every control of the mode on screen can be scrolled to and is not covered or cut off. */
async function layoutProblems(page) {
  return page.evaluate(() => {
    const problems = [];
    const vw = window.innerWidth;
    if (document.documentElement.scrollWidth > vw) problems.push(`page ${document.documentElement.scrollWidth} px wide in ${vw}`);
    const mode = document.body.dataset.mode;
    const scope = [document.querySelector('header'), document.getElementById(mode)];
    // (Rows of a table are reached by scrolling its box: its columns' headers are checked.)
    const controls = scope.flatMap((s) => [...s.querySelectorAll('button, input, select, a[href], th, [tabindex]:not(tr)')]);
    for (const c of controls) {
      if (c.offsetParent === null || c.closest('[hidden]')) continue; // hidden by design
      c.scrollIntoView({ block: 'center', inline: 'center' });
      const r = c.getBoundingClientRect();
      const name = c.id || c.dataset.piece || c.textContent.trim().slice(0, 20) || c.tagName;
      if (r.width < 1 || r.height < 1) problems.push(`${name}: no size`);
      else if (r.left < -1 || r.right > vw + 1) problems.push(`${name}: ${Math.round(r.left)}..${Math.round(r.right)} outside 0..${vw}`);
      else {
        const x = Math.min(Math.max(r.left + r.width / 2, 0), vw - 1);
        const y = Math.min(Math.max(r.top + Math.min(r.height / 2, 8), 0), window.innerHeight - 1);
        const hit = document.elementFromPoint(x, y);
        if (hit && hit !== c && !c.contains(hit) && !hit.contains(c)) problems.push(`${name}: covered by ${hit.id || hit.className || hit.tagName}`);
      }
    }
    window.scrollTo(0, 0);
    return problems;
  });
}

await check('at 360 px and 1280 px the page fits, every control can be reached', async () => {
  for (const width of [360, 1280]) {
    const page = await openPage(POSITION_119, { width, height: 800 });
    await waitState(page, ['done']);
    assertEqual(await layoutProblems(page), [], `analysis at ${width} px`);
    if (width === 360) {
      // The moves as cards: every column's text in the box, Keys and Carry named.
      assertEqual(await tableProblems(page, '#moves'), [], 'the moves at 360 px');
    } else {
      // Every column of the moves table can be scrolled to within its own box.
      const lastColumn = await page.evaluate(() => {
        const wrap = document.querySelector('#result-panel .table-wrap');
        wrap.scrollLeft = wrap.scrollWidth;
        const th = document.querySelector('#moves th:last-child').getBoundingClientRect();
        const box = wrap.getBoundingClientRect();
        return th.right <= box.right + 1 && th.left >= box.left - 1;
      });
      assert(lastColumn, `the Carry column at ${width} px`);
    }
    await page.screenshot({ path: join(out, `layout-analysis-${width}.png`), fullPage: true });
    await page.click('#play-here');
    await page.waitForFunction(() => document.getElementById('chance').dataset.turn === '0', { timeout: 60_000 });
    assertEqual(await layoutProblems(page), [], `play at ${width} px`);
    if (width === 1280) {
      // The field's gestures are for touch: the mouse does nothing there.
      const piece = () => page.$eval('#play-board', (n) => n.dataset.piece);
      const before = await piece();
      await page.click('#play-board');
      assertEqual(await piece(), before, 'the piece after a click on the field');
    }
    await page.screenshot({ path: join(out, `layout-play-${width}.png`), fullPage: true });
    await page.click('#play-settings');
    const dialog = await page.evaluate(() => {
      const r = document.getElementById('settings-dialog').getBoundingClientRect();
      return r.left >= 0 && r.right <= window.innerWidth;
    });
    assert(dialog, `the settings dialog at ${width} px`);
    await page.screenshot({ path: join(out, `layout-settings-${width}.png`) });
    assertEqual(page.problems, [], 'console');
    await page.close();
  }
});

// --- the solutions of a pattern ---------------------------------------------------------------------

/** The counts `#solutions` holds once the solutions are found. */
async function solutionCounts(page) {
  await page.waitForFunction(() => document.querySelector('#solutions[data-unique]'), { timeout: 120_000, polling: 50 });
  return page.$eval('#solutions', (n) => ({
    queues: Number(n.dataset.queues), covered: Number(n.dataset.covered), unique: Number(n.dataset.unique), minimal: Number(n.dataset.minimal),
  }));
}

await check('a link with a pattern shows the minimal solutions as the native path finds them (360 and 1280 px)', async () => {
  // The PCO (I kept in hold) as sfinder's examples write it.
  const pco = '##.....###/###....###/####...###/###....###';
  const expected = nativePath(args.path, pco, 'I,*p4', join(out, 'path-native'));
  const { ms: nativeMs, ...counts } = expected;
  assertEqual(counts, { queues: 840, covered: 711, unique: 63, minimal: 26 }, 'native path');
  for (const width of [360, 1280]) {
    const page = await openPage('fumen=v115@9gB8EeF8DeG8CeF8DeC8JeAgH&pattern=I,*p4', { width, height: 800 });
    assertEqual(await page.$eval('#pattern', (n) => n.value), 'I,*p4', 'the pattern in the form');
    assertEqual(await solutionCounts(page), counts, `the solutions at ${width} px`);
    figures[`path_pco_ms_${width}`] = Number(await page.$eval('#solutions', (n) => n.dataset.ms));
    figures.native_path_pco_ms = nativeMs;
    const cards = await page.$$eval('#solutions .solution', (nodes) => nodes.map((n) => ({
      queues: Number(n.dataset.queues),
      share: n.querySelector('.share-of').textContent,
      filled: n.querySelectorAll('.cell.filled').length,
      grays: n.querySelectorAll('.cell.p-X').length,
      link: n.querySelector('a').href,
    })));
    assertEqual(cards.length, counts.minimal, 'a card per solution of the minimal set');
    for (const c of cards) {
      assertEqual([c.filled, c.grays], [40, 24], 'a card draws the whole PC');
      assert(c.share.startsWith(`${c.queues}/840 · `), `share "${c.share}"`);
      assert(/\?v115@/.test(c.link), `fumen link ${c.link}`);
    }
    assert(cards.every((c, i) => i === 0 || cards[i - 1].queues >= c.queues), 'the most queues first');
    assertEqual(await page.$$eval('#board .cell.filled', (c) => c.length), 24, 'the fumen\'s field');
    assert((await page.evaluate(() => location.search)).endsWith('&pattern=I,*p4'), 'the link keeps the pattern');
    // A card steps through its solution: a page per placement, then the cleared field.
    await page.click('#solutions .solution:first-child .solution-open');
    assertEqual(await text(page, '#solution-page'), '1 / 5', 'the chosen solution\'s pages');
    assertEqual(await page.$$eval('#solution-board .cell.ghost', (c) => c.length), 4, 'its first piece');
    for (let i = 0; i < 4; i++) await page.click('#solution-next');
    assertEqual(await text(page, '#solution-text'), 'Perfect clear.', 'its last page');
    assertEqual(await layoutProblems(page), [], `solutions at ${width} px`);
    await page.screenshot({ path: join(out, `layout-solutions-${width}.png`), fullPage: true });
    assertEqual(page.problems, [], 'console');
    if (width === 1280) {
      // A pattern typed into the form: a bad one is a message naming it, then a *p7 field.
      await page.click('#pattern', { clickCount: 3 });
      await page.type('#pattern', 'I,*p9');
      await page.click('#solutions-find');
      await page.waitForFunction(() => document.getElementById('solutions').dataset.state === 'error', { timeout: 30_000 });
      const shown = (await alerts(page)).join(' ');
      assert(shown.includes('pattern: line 1, column 5: cannot pick 9 distinct pieces'), shown);
      assert(await page.$eval('[data-input="pattern"]', (n) => n.classList.contains('invalid')), 'the pattern marked');
      const field = '####....../####....../####....../####......';
      const p7 = nativePath(args.path, field, '*p7', join(out, 'path-native'));
      await page.click('#field-clear');
      for (let y = 0; y < 4; y++) for (let x = 0; x < 4; x++) await page.click(`#board .cell[data-x="${x}"][data-y="${y}"]`);
      await page.click('#pattern', { clickCount: 3 });
      await page.type('#pattern', '*p7');
      await page.keyboard.press('Enter');
      const { ms: p7Ms, ...p7Counts } = p7;
      assertEqual(await solutionCounts(page), p7Counts, 'the *p7 field');
      figures.path_p7_ms = Number(await page.$eval('#solutions', (n) => n.dataset.ms));
      figures.native_path_p7_ms = p7Ms;
      await page.screenshot({ path: join(out, 'page-solutions-p7.png'), fullPage: true });
    }
    await page.close();
  }
});

// --- Cancel ----------------------------------------------------------------------------------------

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

await check('Cancel stops a long solve and the page stays usable', async () => {
  const page = await openPage(LONG);
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
  assert(state === 'done', `state ${state}: ${await alerts(page)}`);
  assertEqual(await text(page, '#chance'), '119/120', '#chance after cancel');
  assertEqual(page.workers().length, 1, 'workers after the next solve');
  assertEqual(page.problems, [], 'console');
  await page.close();
});

if (args.figures) {
  const nativeLong = JSON.parse(readFileSync(args.figures, 'utf8'));
  await check('figures: the empty field with I held and JLOSTZ, to the end', async () => {
    const page = await openPage(LONG);
    const state = await waitState(page, ['done', 'error'], 600_000);
    assert(state === 'done', `state ${state}: ${await alerts(page)}`);
    assertEqual(await text(page, '#chance'), `${nativeLong.probability[0]}/${nativeLong.probability[1]}`, '#chance');
    sameRanking(await tableMoves(page), nativeMoves(nativeLong));
    figures.solve_long_ms = Number(await page.$eval('#status', (n) => n.dataset.ms));
    figures.wasm_memory_long_mib = Math.round(Number(await page.$eval('#status', (n) => n.dataset.memory)) / 2 ** 20);
    figures.native_long_ms = nativeLong.elapsed_ms;
    await page.screenshot({ path: join(out, 'page-long.png'), fullPage: true });
    await page.close();
  });
}

await browser.done();
writeFileSync(join(out, 'figures.json'), `${JSON.stringify(figures, null, 2)}\n`);
console.log(`figures: ${JSON.stringify(figures)}`);
console.log(`${results.passed} passed, ${results.failed} failed${results.skipped ? `, ${results.skipped} skipped (PC_WEB_ONLY)` : ''}`);
process.exit(results.failed ? 1 : 0);
