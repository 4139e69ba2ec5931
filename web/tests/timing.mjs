// Timings of the page with a full PC graph, in headless Chromium (web/time-graph.sh runs
// this; not a CI test: minutes).
//
//   node tests/timing.mjs --url http://127.0.0.1:PORT/ --out DIR [--runs 5] [--games N]
//        [--play-decisions N] [--no-play] [--start LINK [--start-chance N/D] [--start-again H,Q,B]
//        [--start-fresh]] [--throttle MBIT] [--throttle-runs N]
//
// 0. --throttle-runs (3) first visits with the network throttled to --throttle Mbit/s (50;
//    0: none), each in a context of its own: the time from the request to the first exact
//    answer (I held, JLOSTZ: 419/420) and the engine that gave it, the time to the graph
//    ready, and the renderer's resident memory after (not sampled meanwhile: see firstVisit).
// 1. A first visit (fresh profile): the graph downloaded, checked and read; the first
//    decision of a PC, I held and JLOSTZ (419/420), answered from it; the renderer's
//    largest resident memory while it loads.
//    Then the worker writes the graph laid out plainly into OPFS and a fresh worker reads
//    it in the place of the first: how long each took, the renderer's largest resident
//    memory meanwhile, then the same decision and the renderer's memory after it.
// 2. --runs reloads: the graph read from the plain file the browser keeps (decode included) and the same
//    decision; medians.
// 3. The first decision of a game in Play mode, the hold slot empty (the empty field,
//    LSITJO, Z forced: 69/70), answered from the graph in full, on --runs reloads (the
//    graph from the cache; with --start-fresh, each in a browser context of its own: a first
//    visit, the graph downloaded, what five unknown pieces read fetched from the site): the
//    worker's solve time, the time from the piece appearing to its answer, the worker's
//    memory; medians.
// 4. Play mode, by keyboard, following the hints, with the graph and then without it
//    (turned off in the settings): the time from each piece appearing to its answer.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { launch, open, sleep } from './lib.mjs';

const args = Object.fromEntries(
  process.argv.slice(2).reduce((pairs, word, i, all) => (word.startsWith('--')
    ? [...pairs, [word.slice(2), all[i + 1] === undefined || all[i + 1].startsWith('--') ? true : all[i + 1]]]
    : pairs), []),
);
const base = args.url;
const runs = Number(args.runs ?? 5);
const LONG = 'field=..........&hold=I&queue=JLOSTZ&kicks=srs';
// --start LINK times another Play start the graph answers (e.g. a start of a PC with four
// previews, five pieces unknown, or with three, which Play estimates from the graph);
// --start-chance its chance, checked when given.
const GAME_START = args.start ?? 'play=1&seed=1&preview=5&field=..........&queue=LSITJO&bag=Z&kicks=srs';
const START_CHANCE = args['start-chance'] ?? (args.start ? null : '69/70');
// --start-again HOLD,QUEUE,BAG: then another start in the same page (startAgain).
const START_AGAIN = args['start-again'] ?? null;
// --start-fresh: each Play start a first visit (a browser context of its own).
const START_FRESH = !!args['start-fresh'];

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/** Resident memory of this browser's processes, by kind, in MiB. */
function resident(profile) {
  const kinds = {};
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      if (!cmd.includes(profile)) continue;
      const kind = (cmd.match(/--type=([a-z-]+)/) ?? [null, 'browser'])[1];
      const rss = Number(readFileSync(`/proc/${pid}/status`, 'utf8').match(/VmRSS:\s+(\d+)/)[1]) / 1024;
      kinds[kind] = Math.max(kinds[kind] ?? 0, Math.round(rss));
    } catch (_) {
      // gone
    }
  }
  return kinds;
}

/** Samples the renderer's resident memory every 50 ms until `stop()`, which returns the largest. */
function peakRenderer(profile) {
  let peak = 0;
  const timer = setInterval(() => { peak = Math.max(peak, resident(profile).renderer ?? 0); }, 50);
  return () => {
    clearInterval(timer);
    return Math.max(peak, resident(profile).renderer ?? 0);
  };
}

/**
 * A first visit in a context of its own, the network throttled to `mbit` Mbit/s (0: not):
 * the time from the request to the first exact answer. The renderer's memory is read only
 * at the end: sampling /proc every 50 ms would compete with the page for the CPU on a small
 * machine (the unthrottled first visit below samples its peak).
 */
async function firstVisit(browser, mbit) {
  const context = await browser.createBrowserContext();
  const page = await context.newPage();
  if (mbit > 0) {
    await page.emulateNetworkConditions({ download: (mbit * 1e6) / 8, upload: (mbit * 1e6) / 8, latency: 20 });
  }
  const started = performance.now();
  await open(browser, base, LONG, { page });
  // The first exact answer on screen, whichever engine gave it (a page may answer before
  // its graph is in), then the graph ready.
  await page.waitForFunction(() => ['done', 'error'].includes(document.body.dataset.state), { timeout: 900_000, polling: 50 });
  const firstAnswerMs = Math.round(performance.now() - started);
  const answeredBy = await page.$eval('#status', (n) => n.dataset.engine);
  await page.waitForFunction(() => ['ready', 'failed'].includes(document.getElementById('graph-status').dataset.state), { timeout: 900_000, polling: 50 });
  const graphReadyMs = Math.round(performance.now() - started);
  const after = resident(browser.profile);
  const chance = await page.$eval('#chance', (n) => n.textContent);
  // Where the time went: the module loaded, the graph streamed in (downloaded and
  // decompressed as it came), the graph finished, the decision solved.
  const parts = await page.evaluate(() => {
    const g = window.pcPage.solver.graph;
    return {
      moduleMs: Number(document.getElementById('load-info')?.dataset.ms ?? NaN),
      graphMs: g.ms, streamMs: g.downloadMs, streamModuleMs: g.moduleMs, chunks: g.chunks, decodeMs: g.decodeMs,
      solveMs: Number(document.getElementById('status').dataset.ms),
    };
  });
  await context.close();
  if (chance !== '419/420') throw new Error(`throttled first visit: ${chance}`);
  return {
    throttleMbit: mbit, firstAnswerMs, answeredBy, graphReadyMs, ...parts, rendererAfterMiB: after.renderer,
  };
}

async function graphVisit(page, fresh) {
  await page.waitForFunction(() => ['ready', 'failed'].includes(document.getElementById('graph-status').dataset.state), { timeout: 900_000, polling: 100 });
  await page.waitForFunction(() => ['done', 'error'].includes(document.body.dataset.state), { timeout: 900_000, polling: 100 });
  const got = await page.evaluate(() => {
    const g = window.pcPage.solver.graph;
    const s = document.getElementById('status').dataset;
    return {
      graph: g.state, fromCache: g.fromCache, loadMs: g.ms, inflateMs: g.downloadMs, decodeMs: g.decodeMs,
      streamModuleMs: g.moduleMs, chunks: g.chunks,
      workerMemoryMiB: Math.round(g.memory / 2 ** 20), fields: g.info?.fields, bytes: g.entry?.bytes, raw: g.entry?.raw,
      chance: document.getElementById('chance').textContent, engine: s.engine, solveMs: Number(s.ms),
      memoryAfterSolveMiB: Math.round(Number(s.memory) / 2 ** 20),
    };
  });
  if (got.graph !== 'ready') throw new Error(`graph ${got.graph}: ${await page.$eval('#graph-text', (n) => n.textContent)}`);
  if (got.chance !== '419/420' || got.engine !== 'graph') throw new Error(`first decision: ${got.chance} by ${got.engine}`);
  return { fresh, ...got };
}

/** The first decision of a game in Play mode, once answered: its timing and answer. */
async function gameStart(page) {
  await page.waitForFunction(() => ['ready', 'failed'].includes(window.pcPage?.solver.graph.state), { timeout: 900_000, polling: 100 });
  await page.waitForFunction(() => document.getElementById('chance').dataset.turn === '0' && window.pcPage.play.figures().length > 0,
    { timeout: 900_000, polling: 20 });
  const got = await page.evaluate(() => {
    const play = window.pcPage.play;
    const [t] = play.figures();
    const a = play.answers.get(play.key).answer;
    const g = window.pcPage.solver.graph;
    return {
      graph: g.state, fromCache: g.fromCache, graphLoadMs: g.ms, chance: a.chance?.fraction ?? null,
      // 'file' when the worker read what five unknown pieces read from the file a page before
      // kept, 'site' when it took the site's copy (preparedMs: from the graph ready to taken).
      preparedFrom: g.preparedFrom ?? null, preparedReadMs: g.preparedReadMs ?? null,
      preparedMs: g.preparedMs ?? null, preparedError: g.preparedError ?? null,
      holdFirst: a.hold_first?.fraction ?? null, moves: a.moves.length, partial: !!a.partial, engine: t.engine,
      estimate: a.estimate ? { ...a.estimate, percent: a.chance.percent, stdError: a.chance.std_error } : null,
      solveMs: t.solveMs, answerMs: t.ms, workerMemoryMiB: Math.round(t.memory / 2 ** 20),
      hint: document.getElementById('hint-text').textContent,
    };
  });
  if (got.graph !== 'ready' || got.partial || got.engine !== 'graph' || (START_CHANCE && got.chance !== START_CHANCE)) {
    throw new Error(`the Play start: ${JSON.stringify(got)}`);
  }
  return got;
}

/**
 * Another start of a PC in the same page, after the first (--start-again HOLD,QUEUE,BAG: the
 * start link's form with that hold, queue and bag): the worker's solve time of a decision
 * that finds the module's tables made, as a game's later starts of a PC do.
 */
async function startAgain(page) {
  const [hold, queue, bag] = START_AGAIN.split(',');
  return page.evaluate(async (hold, queue, bag) => {
    const form = { ...window.pcPage.play.game.form, hold, queue, bag };
    const { answer, ms } = await window.pcPage.solver.solve(form, { key: `again ${JSON.stringify(form)}`, op: 'play_solve' });
    if (!answer.ok) throw new Error(answer.error);
    return { solveMs: ms, chance: answer.chance?.fraction ?? null, engine: answer.engine, moves: answer.moves.length };
  }, hold, queue, bag ?? '');
}

// --- the scripted player -------------------------------------------------------------------------
const KEYS = { L: 'ArrowLeft', R: 'ArrowRight', cw: 'KeyX', ccw: 'KeyZ', 180: 'KeyA', hd: 'Space' };

async function playGame(page, limit) {
  let decisions = 0;
  for (;;) {
    const state = await page.evaluate(() => ({
      turn: document.getElementById('play-panel').dataset.turn, over: document.getElementById('play-panel').dataset.over,
    }));
    if (state.over || decisions >= limit) return decisions;
    await page.waitForFunction((t) => document.getElementById('chance').dataset.turn === t || document.getElementById('play-panel').dataset.over,
      { timeout: 900_000, polling: 20 }, state.turn);
    const hint = await page.evaluate(() => ({ keys: document.getElementById('hint-keys').textContent, hold: document.getElementById('hint-keys').dataset.hold }));
    if (await page.$eval('#play-panel', (n) => n.dataset.over)) return decisions;
    decisions += 1;
    if (hint.hold === 'first' || hint.hold === 'true') await page.keyboard.press('KeyC');
    if (hint.hold === 'first') continue;
    for (const k of hint.keys.split(' ').filter(Boolean)) {
      if (k === 'sd') {
        await page.keyboard.down('ArrowDown');
        await page.waitForFunction(() => document.getElementById('play-board').dataset.resting === '1', { polling: 10 });
        await page.keyboard.up('ArrowDown');
      } else if (k === 'd') await page.keyboard.press('ArrowDown');
      else await page.keyboard.press(KEYS[k]);
    }
  }
}

async function playTimings(browser, graphOn, budget) {
  const context = await browser.createBrowserContext();
  let page = await context.newPage();
  await page.evaluateOnNewDocument((on) => {
    localStorage.setItem('pc-settings-v1', JSON.stringify({ graph: on }));
  }, graphOn);
  const all = [];
  const games = [];
  for (let seed = 1; all.length < budget && seed < 50; seed++) {
    page = await open(browser, base, `play=1&seed=${seed}`, { page });
    if (graphOn) {
      await page.waitForFunction(() => window.pcPage.solver.graph.state === 'ready', { timeout: 900_000 });
    }
    const decisions = await playGame(page, budget - all.length);
    await sleep(200);
    const timings = await page.evaluate(() => window.pcPage.play.figures());
    const pcs = Number(await page.$eval('#pc-count', (n) => n.textContent));
    games.push({ seed, decisions, pcs });
    all.push(...timings.map((t) => ({ ...t, seed })));
    console.log(`  ${graphOn ? 'graph' : 'no graph'}: seed ${seed}, ${pcs} PCs, ${decisions} decisions, worst ${Math.round(Math.max(...timings.map((t) => t.ms)))} ms`);
  }
  await context.close();
  // The first answer of a page load also waits for the page, the module and (with it) the
  // graph read from the cache: reported apart.
  const later = all.filter((t) => t.turn > 0);
  const ms = later.map((t) => t.ms);
  const firsts = later.filter((t) => t.first);
  return {
    graph: graphOn, games, answers: ms.length, medianMs: Math.round(median(ms)), worstMs: Math.round(Math.max(...ms)),
    over1500: ms.filter((x) => x > 1500).length,
    pageLoadFirstAnswersMs: all.filter((t) => t.turn === 0).map((t) => Math.round(t.ms)),
    workerMemoryMiBMax: Math.round(Math.max(...all.map((t) => t.memory ?? 0)) / 2 ** 20),
    engines: all.reduce((n, t) => ({ ...n, [t.engine]: (n[t.engine] ?? 0) + 1 }), {}),
    slowest: [...all].sort((a, b) => b.ms - a.ms).slice(0, 5).map((t) => ({ seed: t.seed, turn: t.turn, ms: Math.round(t.ms), engine: t.engine })),
    pcStarts: firsts.length,
    pcStartsMedianMs: firsts.length ? Math.round(median(firsts.map((t) => t.ms))) : null,
    pcStartsWorstMs: firsts.length ? Math.round(Math.max(...firsts.map((t) => t.ms))) : null,
  };
}

// --- run ------------------------------------------------------------------------------------------
const browser = await launch();
const figures = { runs: [] };
const throttle = Number(args.throttle ?? 50);
if (throttle > 0) {
  // --throttle-runs first visits (3), each in a fresh context: the median and each.
  figures.throttled_first_visits = [];
  for (let i = 0; i < Number(args['throttle-runs'] ?? 3); i++) {
    const visit = await firstVisit(browser, throttle);
    figures.throttled_first_visits.push(visit);
    console.log('throttled first visit', JSON.stringify(visit));
  }
  figures.throttled_first_answer_ms_median = median(figures.throttled_first_visits.map((v) => v.firstAnswerMs));
}
const stopPeak = peakRenderer(browser.profile);
let page = await open(browser, base, LONG);
figures.first_visit = await graphVisit(page, true);
figures.first_visit.peakRendererMiB = stopPeak();
figures.first_visit.resident = resident(browser.profile);
console.log('first visit', JSON.stringify(figures.first_visit));
// The worker then writes the graph plainly into OPFS (what the reloads read).
const stopPlainPeak = peakRenderer(browser.profile);
await page.waitForFunction(() => ['plain', 'failed'].includes(document.getElementById('graph-status').dataset.cached), { timeout: 900_000, polling: 100 });
// Then a fresh worker reads that file in the place of the one that downloaded the graph.
await page.waitForFunction(() => window.pcPage.solver.graph.renewed || window.pcPage.solver.graph.cached !== 'plain', { timeout: 60_000, polling: 100 });
figures.plain_cache = await page.evaluate(() => {
  const g = window.pcPage.solver.graph;
  const renewed = g.renewed && { ms: Math.round(g.renewed.ms), source: g.renewed.source, workerMemoryMiB: Math.round(g.renewed.memory / 2 ** 20) };
  return { cached: g.cached, ms: Math.round(g.cacheMs), error: g.cacheError ?? null, renewed };
});
figures.plain_cache.peakRendererMiB = stopPlainPeak();
// The same decision asked of the renewed worker, and the renderer then.
figures.plain_cache.after = await page.evaluate(async () => {
  const { answer, ms, memory } = await window.pcPage.solver.solve(
    { field: '..........', hold: 'I', queue: 'JLOSTZ', bag: '', kicks: 'srs', drop: 'softdrop' }, { key: 'renewed' });
  return { chance: answer.chance?.fraction, engine: answer.engine, solveMs: Math.round(ms), workerMemoryMiB: Math.round(memory / 2 ** 20) };
});
if (figures.plain_cache.after.chance !== '419/420' || figures.plain_cache.after.engine !== 'graph') {
  throw new Error(`the renewed worker: ${JSON.stringify(figures.plain_cache.after)}`);
}
figures.plain_cache.after.resident = resident(browser.profile);
console.log('plain layout cached', JSON.stringify(figures.plain_cache));
for (let i = 0; i < runs; i++) {
  await page.reload({ waitUntil: 'load' });
  await page.waitForFunction(() => document.body.dataset.state !== 'loading');
  const run = await graphVisit(page, false);
  run.resident = resident(browser.profile);
  figures.runs.push(run);
  console.log(`reload ${i + 1}`, JSON.stringify(run));
}
figures.cache_load_ms_median = Math.round(median(figures.runs.map((r) => r.loadMs)));
figures.first_decision_ms_median = Math.round(median(figures.runs.map((r) => r.solveMs)));
figures.worker_memory_mib_max = Math.max(...figures.runs.map((r) => r.memoryAfterSolveMiB));
await page.close();
// Each in a page of its own (the graph from the cache): a reload or a navigation keeps the
// last page's worker memory for a while, which the renderer's resident size would count.
figures.game_start = { runs: [] };
for (let i = 0; i < runs; i++) {
  const context = START_FRESH ? await browser.createBrowserContext() : null;
  page = await open(browser, base, GAME_START, context ? { page: await context.newPage() } : {});
  const run = await gameStart(page);
  if (START_AGAIN) run.again = await startAgain(page);
  // A page that made what five unknown pieces read keeps it in a file for the next (the
  // worker writes it after the answer): the page stays open until it has, as a player's would.
  await page.waitForFunction(() => {
    const g = window.pcPage.solver.graph;
    return g.preparedMs === undefined || g.preparedKept || g.preparedFrom;
  }, { timeout: 30_000, polling: 100 }).catch(() => {});
  run.resident = resident(browser.profile);
  figures.game_start.runs.push(run);
  console.log(`game start ${i + 1}`, JSON.stringify(run));
  await page.close();
  await context?.close();
}
figures.game_start.solve_ms_median = Math.round(median(figures.game_start.runs.map((r) => r.solveMs)));
figures.game_start.answer_ms_median = Math.round(median(figures.game_start.runs.map((r) => r.answerMs)));
figures.game_start.worker_memory_mib_max = Math.max(...figures.game_start.runs.map((r) => r.workerMemoryMiB));
figures.game_start.renderer_mib_max = Math.max(...figures.game_start.runs.map((r) => r.resident.renderer ?? 0));
if (START_AGAIN) figures.game_start.again_solve_ms_median = Math.round(median(figures.game_start.runs.map((r) => r.again.solveMs)));
if (!args['no-play']) {
  const budget = Number(args['play-decisions'] ?? 120);
  figures.play_with_graph = await playTimings(browser, true, budget);
  console.log('play with the graph', JSON.stringify(figures.play_with_graph));
  figures.play_without_graph = await playTimings(browser, false, Number(args['play-decisions-without'] ?? budget));
  console.log('play without the graph', JSON.stringify(figures.play_without_graph));
}
await browser.done();
writeFileSync(join(args.out, 'timing.json'), `${JSON.stringify(figures, null, 2)}\n`);
console.log(JSON.stringify({
  throttled_first_answer_ms: figures.throttled_first_visits?.map((v) => v.firstAnswerMs),
  throttled_first_answer_ms_median: figures.throttled_first_answer_ms_median,
  first_visit_peak_renderer_mib: figures.first_visit.peakRendererMiB,
  first_visit_renderer_mib: figures.first_visit.resident.renderer,
  renewed_renderer_mib: figures.plain_cache.after.resident.renderer,
  plain_cache_peak_renderer_mib: figures.plain_cache.peakRendererMiB,
  renderer_after_reload_mib_max: Math.max(...figures.runs.map((r) => r.resident.renderer ?? 0)),
  cache_load_ms_median: figures.cache_load_ms_median,
  first_decision_ms_median: figures.first_decision_ms_median,
  worker_memory_mib_max: figures.worker_memory_mib_max,
  game_start: {
    solve_ms_median: figures.game_start.solve_ms_median, answer_ms_median: figures.game_start.answer_ms_median,
    worker_memory_mib_max: figures.game_start.worker_memory_mib_max, renderer_mib_max: figures.game_start.renderer_mib_max,
    again_solve_ms_median: figures.game_start.again_solve_ms_median,
  },
  play_with_graph: figures.play_with_graph && { median: figures.play_with_graph.medianMs, worst: figures.play_with_graph.worstMs },
  play_without_graph: figures.play_without_graph && { median: figures.play_without_graph.medianMs, worst: figures.play_without_graph.worstMs },
}));
