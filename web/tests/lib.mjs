// What the browser checks share: the check runner, assertions, a browser with a fresh
// profile, pages, and the native `recommend` example for exact values.
import puppeteer from 'puppeteer-core';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const results = { passed: 0, failed: 0, skipped: 0 };
export const figures = {};

/**
 * Runs one named check; a failure is counted and printed, the others go on. With
 * PC_WEB_ONLY set, only the checks whose name contains it run.
 */
export async function check(name, body) {
  if (process.env.PC_WEB_ONLY && !name.includes(process.env.PC_WEB_ONLY)) {
    results.skipped += 1;
    return;
  }
  const started = Date.now();
  try {
    await body();
    results.passed += 1;
    console.log(`ok   ${name} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  } catch (err) {
    results.failed += 1;
    console.log(`FAIL ${name}: ${err.message}`);
    if (process.env.PC_WEB_DEBUG) console.log(err.stack);
  }
}

export function assert(condition, message) {
  if (!condition) throw new Error(message);
}

export function assertEqual(actual, expected, what) {
  const a = JSON.stringify(actual);
  const e = JSON.stringify(expected);
  if (a !== e) throw new Error(`${what}: got ${a}, expected ${e}`);
}

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** A headless Chromium with a profile of its own (deleted by close()). */
export async function launch() {
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
  browser.profile = profile;
  browser.done = async () => {
    await browser.close();
    rmSync(profile, { recursive: true, force: true });
  };
  return browser;
}

/**
 * Opens the page (the query after '?', or none) and waits for the module; `touch`: a phone's
 * touch screen (Chromium's touch emulation, the page's meta viewport).
 */
export async function open(browser, base, query = '', {
  width = 1440, height = 960, touch = false, page = null,
} = {}) {
  const p = page ?? await browser.newPage();
  await p.setViewport({ width, height, hasTouch: touch, isMobile: touch });
  if (!p.problems) {
    const problems = [];
    p.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
    p.on('console', (msg) => { if (msg.type() === 'error') problems.push(`console error: ${msg.text()}`); });
    p.problems = problems;
  }
  await p.goto(`${base}${query ? `?${query}` : ''}`, { waitUntil: 'load' });
  await p.waitForFunction(() => document.body.dataset.state !== 'loading', { timeout: 30_000 });
  return p;
}

export async function waitState(page, states, timeout = 120_000) {
  await page.waitForFunction((s) => s.includes(document.body.dataset.state), { timeout, polling: 50 }, states);
  return page.evaluate(() => document.body.dataset.state);
}

export async function text(page, selector) {
  return page.$eval(selector, (n) => n.textContent.trim());
}

/** The messages of the page's alerts on screen. */
export async function alerts(page) {
  return page.$$eval('[role="alert"]', (nodes) => nodes.filter((n) => !n.hidden && n.offsetParent !== null).map((n) => n.textContent.trim()));
}

// --- the native recommend example ------------------------------------------------------------

const cache = new Map();

/**
 * The `recommend` example's JSON for a position in the page's form ({field, clear_line,
 * hold, queue, bag, kicks, drop, two_line}), answered without a graph (the values are the
 * same with one).
 */
export function native(binary, form) {
  const args = [
    '--field', form.field || '..........', '--clear-line', String(form.clear_line ?? 4),
    '--hold', form.hold || 'none', '--queue', form.queue, '--bag', form.bag || '',
    '-K', form.kicks ?? 'srs', '-d', form.drop ?? 'softdrop', '--no-graph', '--format', 'json',
  ];
  if (form.two_line) args.push('--two-line');
  const key = args.join(' ');
  if (!cache.has(key)) {
    const run = spawnSync(binary, args, { encoding: 'utf8', timeout: 600_000 });
    if (run.status !== 0) throw new Error(`recommend ${key}: ${run.stderr || run.error}`);
    cache.set(key, JSON.parse(run.stdout));
  }
  return cache.get(key);
}

const pathCache = new Map();

/**
 * The `path` example's counts for a field (rows) and a pattern: {queues, covered, unique,
 * minimal}. `dir`: where it may write its csv files.
 */
export function nativePath(binary, rows, pattern, dir) {
  const args = ['--field', rows, '-p', pattern, '-c', '4', '-o', dir];
  const key = args.join(' ');
  if (!pathCache.has(key)) {
    const run = spawnSync(binary, args, { encoding: 'utf8', timeout: 600_000 });
    if (run.status !== 0) throw new Error(`path ${key}: ${run.stderr || run.error}`);
    const number = (re) => {
      const m = run.stdout.match(re);
      if (!m) throw new Error(`path ${key}: no ${re} in ${run.stdout}`);
      return Number(m[1]);
    };
    pathCache.set(key, {
      queues: number(/Queues with a PC = \d+ of (\d+)/),
      covered: number(/Queues with a PC = (\d+) of/),
      unique: number(/Found path \[unique\] = (\d+)/),
      minimal: number(/Found path \[minimal\] = (\d+)/),
      ms: number(/Search: ([\d.]+) ms/),
    });
  }
  return pathCache.get(key);
}

/**
 * What of a table cannot be read in its box without scrolling sideways: the box wider
 * inside than out, a cell with text outside the box, cut off or with no size, and, where
 * the header is not shown (the cards of a phone), a cell of a column whose header has
 * `data-card-label` without that name before it. [] when all of it shows.
 */
export async function tableProblems(page, selector) {
  return page.$eval(selector, (table) => {
    const problems = [];
    const box = table.closest('.table-wrap');
    if (box.scrollWidth > box.clientWidth) problems.push(`${table.id}: ${box.scrollWidth} px wide in a box of ${box.clientWidth}`);
    const b = box.getBoundingClientRect();
    const headers = [...table.querySelectorAll('thead th')];
    const named = table.tHead.offsetParent === null;
    for (const row of table.querySelectorAll('tbody tr')) {
      [...row.cells].forEach((td, i) => {
        const text = td.textContent.trim();
        if (!text) return;
        const where = `${table.id} row ${row.rowIndex}, ${headers[i].textContent} "${text.slice(0, 24)}"`;
        const r = td.getBoundingClientRect();
        if (r.width < 1 || r.height < 1) problems.push(`${where}: no size`);
        else if (r.left < b.left - 1 || r.right > b.right + 1) problems.push(`${where}: ${Math.round(r.left)}..${Math.round(r.right)} outside ${Math.round(b.left)}..${Math.round(b.right)}`);
        else if (td.scrollWidth > td.clientWidth + 1) problems.push(`${where}: cut off`);
        const label = getComputedStyle(td, '::before').content;
        if (named && headers[i].hasAttribute('data-card-label') && label !== JSON.stringify(headers[i].textContent)) problems.push(`${where}: named ${label}`);
      });
    }
    return problems;
  });
}

export function nativeFraction(json) {
  return `${json.probability[0]}/${json.probability[1]}`;
}

/** a − b of two fractions "n/d", reduced (BigInt). */
export function difference(a, b) {
  const [an, ad] = a.split('/').map(BigInt);
  const [bn, bd] = b.split('/').map(BigInt);
  let n = an * bd - bn * ad;
  let d = ad * bd;
  let x = n < 0n ? -n : n;
  let y = d;
  while (y) [x, y] = [y, x % y];
  if (x) {
    n /= x;
    d /= x;
  }
  return `${n}/${d}`;
}

export function sortCells(cells) {
  return [...cells].sort((a, b) => a[1] - b[1] || a[0] - b[0]);
}
