// The solver's thread. Messages from the page:
//   {type: 'init', module}                       once, the compiled module
//   {type: 'solve', id, form, op, extra}         -> {type: 'answer', id, answer, ms, memory, broken,
//                                                   preparing} (op: 'solve', Play mode's
//                                                   'play_solve', or 'path' with extra
//                                                   {pattern, list})
//   {type: 'graph', id, graph, base}             -> {type: 'graph-progress', id, stage, loaded, total}…
//                                                   then {type: 'graph', id, ok, info | error, ms, …}
//                                                   and, after a load of a download or of its
//                                                   cached copy, {type: 'graph-cached',
//                                                   id, layout: 'plain' | null, bytes, ms, error}
//                                                   and, in a Play game with four previews,
//                                                   after the first answer with the graph,
//                                                   {type: 'graph-prepared', id, ms}, or,
//                                                   once the site's copy is in (below),
//                                                   {type: 'graph-prepared', id, ms, from:
//                                                   'site', bytes} ({id, error} when it was
//                                                   refused); once
//                                                   what that makes is kept in a file (below),
//                                                   {type: 'graph-prepared-kept', id, bytes,
//                                                   ms, error}
// An answer or a 'graph' message that says `preparing` is followed by {type:
// 'graph-prepared-done', id} once the worker has fetched, made or kept what five unknown pieces
// read (whatever came of it): until then the page terminates this worker only to cancel.
// A solve cannot be interrupted inside the module: the page cancels by terminating this
// worker and starting another (which loads the graph again, from the browser's cache).
//
// The graph: the page names a file of graphs/index.json ({file, kicks, drop, coding, bytes,
// raw, sha256}). The site serves it zstd-compressed (coding 'zstd'), its moves laid out by
// piece (what compresses best); the module reads it as it streams in, chunk by chunk,
// decompressing it as it goes ({op: 'graph_begin'}, pc_graph_chunk, pc_graph_push), so the
// file is never whole in memory beside the graph. The download also goes, as it came, to the
// Cache API, through a worker of this one (keeper.js); then the module finishes the graph
// ({op: 'graph'}). A file that fails the checks is deleted from the cache and downloaded once
// more; failing again, it is reported and never used.
//
// The layout by piece loads slower than the plain one (the module puts each field's moves
// back together), and a cached download must be decompressed again. So once a graph is in
// from a download, or from the cache's copy of one, and the first answer from it is out (or
// PLAIN_AFTER_MS after the load, if no solve comes first), the module writes the graph's
// file again in the plain layout, a chunk at a time (pc_graph_plain_*), into the origin
// private file system (OPFS), which this worker reads and writes synchronously, straight from
// and into the module's memory: later visits read that file, which loads fastest, and fall
// back to the cached download when it is missing, locked by another tab or damaged (then
// deleted). Solves go between the chunks. The file is written under another name and renamed
// once whole, so a page closed meanwhile leaves no file that looks whole; a browser without
// OPFS keeps loading from the cached download.
//
// What a walk of five unknown pieces reads (a start of a PC with four previews) takes the
// module seconds to make on each graph it loads. Once it has made it (graph_prepare, or the
// first such walk), the worker keeps it in OPFS beside the plain file (pc_graph_prepared_*),
// written and renamed the same way, and a later load of the same graph reads it back
// ({op: 'graph_prepared_load'}, which checks it; a file that fails is deleted) before it
// reports the graph ready: the 'graph' message then says `prepared: {ms, bytes}`. Without
// such a file, when the site serves a copy beside the graph (the index's entry names it under
// `prepared`, zstd-compressed, a few MB), the worker fetches it once the graph is reported
// ready and hands it to the module, which decompresses and checks it, then keeps it in that
// file; a solve of a queue of five pieces or fewer (one that may leave five unknown) waits
// for it rather than making it (SERVED_WAIT_MS at most: on a slow network the walk makes it,
// and the copy, checked when it comes, is kept all the same). A copy refused leaves the
// worker to make it as before.
import { Pc } from './pc.js';

const CACHE = 'pc-graphs';
/** How long the worker waits, once a zstd graph is in, for a first solve before it writes the
 * plain layout. */
const PLAIN_AFTER_MS = 2000;
/** The most bytes of a download read at a time, into a buffer of this worker (BYOB). */
const READ_BUFFER = 256 << 10;
/** The bytes of a download handed at a time to the worker that keeps it in the cache. */
const KEEP_BATCH = 64 << 10;
/** The bytes of the plain file read into the module at a time. */
const PLAIN_CHUNK = 4 << 20;
let ready = null;
/** The job whose plain layout is to be written, if any. */
let plainJob = null;
/** Play's queue (the piece and the preview) with which the graph's walk sees five unknown pieces. */
const FIVE_UNKNOWN_QUEUE = 5;
/** Whether the loaded graph was asked to make what that walk reads (`graph_prepare`). */
let prepared = false;
/** The job of the last graph load. */
let graphId = null;
/** The graph of the last load (its entry of graphs/index.json). */
let graphEntry = null;
/** The job of the graph the module holds, once its load succeeded (null meanwhile). */
let loadedId = null;
/** Whether what a walk of five unknown pieces reads is in a file for the loaded graph (read
 * from one, or written: the worker tries once per load). */
let preparedKept = false;
/** The fetch of the site's copy of what five unknown pieces read, while it is under way. */
let servedPrepared = null;
/** How long a solve waits for that copy at most: about what making it takes the module. */
const SERVED_WAIT_MS = 3000;

self.onmessage = async ({ data }) => {
  if (data.type === 'init') {
    ready = Pc.create(data.module);
    try {
      await ready;
      self.postMessage({ type: 'ready' });
    } catch (err) {
      self.postMessage({ type: 'failed', error: String(err) });
    }
    return;
  }
  const pc = await ready;
  if (data.type === 'solve') {
    // A walk of five unknown pieces would make what the site's copy on its way holds: wait
    // for the copy, up to about what making it takes (a slow network makes it instead).
    if (servedPrepared && (data.form?.queue?.length ?? 0) <= FIVE_UNKNOWN_QUEUE) {
      await Promise.race([servedPrepared, new Promise((done) => setTimeout(done, SERVED_WAIT_MS))]);
    }
    const started = performance.now();
    const answer = pc.call({ ...data.extra, op: data.op ?? 'solve', form: data.form });
    const ms = performance.now() - started;
    const memory = pc.exports.memory.buffer.byteLength;
    // The answer may have made what five unknown pieces read (a start with four previews),
    // to keep; a game with four previews makes it now, while the player moves, rather than
    // in the first of its starts of a PC (whose walk leaves five pieces unknown).
    const loaded = loadedId;
    const keep = !preparedKept && loaded !== null;
    const make = data.op === 'play_solve' && !prepared && loaded !== null
      && data.form?.queue?.length === FIVE_UNKNOWN_QUEUE;
    if (make) prepared = true;
    // `preparing`: a 'graph-prepared-done' follows, and the page renews no worker before it.
    self.postMessage({
      type: 'answer', id: data.id, answer, ms, memory, broken: pc.broken, preparing: keep || make,
    });
    // The first answer is out: the plain layout need not wait any longer. Until the worker
    // that holds it is renewed, the memory of the download's read stays in use.
    if (plainJob) setTimeout(() => storePlain(pc, plainJob?.id), 0);
    if (keep || make) {
      setTimeout(async () => {
        if (keep) await storePrepared(pc, loaded);
        if (make && loaded === loadedId) {
          const begun = performance.now();
          if (pc.call({ op: 'graph_prepare' }).prepared) {
            self.postMessage({ type: 'graph-prepared', id: loaded, ms: performance.now() - begun });
            await storePrepared(pc, loaded);
          } else {
            prepared = false;
          }
        }
        self.postMessage({ type: 'graph-prepared-done', id: loaded });
      }, 0);
    }
  } else if (data.type === 'graph') {
    const started = performance.now();
    // A load lets the last graph go: its plain layout is not written, and what a walk of
    // five unknown pieces reads is made again for the new one.
    plainJob = null;
    prepared = false;
    preparedKept = false;
    servedPrepared = null;
    graphId = data.id;
    graphEntry = data.graph;
    loadedId = null;
    try {
      const { coding, stale, ...result } = await loadGraph(pc, data);
      if (graphId !== data.id) throw new Error('another graph was asked for');
      loadedId = data.id;
      result.prepared = await loadPrepared(pc, data.graph, data.id);
      if (result.prepared?.ms !== undefined) prepared = preparedKept = true;
      // `preparing`: the site's copy is fetched and kept next, and a 'graph-prepared-done' follows.
      const fetching = !prepared && Boolean(data.graph.prepared);
      self.postMessage({
        type: 'graph', id: data.id, ok: true, ...result, ms: performance.now() - started,
        memory: pc.exports.memory.buffer.byteLength, preparing: fetching,
      });
      if (fetching) {
        prepared = true;
        const fetched = fetchPrepared(pc, data.graph, data.base, data.id);
        servedPrepared = fetched;
        fetched.then(() => {
          if (servedPrepared === fetched) servedPrepared = null;
          self.postMessage({ type: 'graph-prepared-done', id: data.id });
        });
      }
      if (result.source !== 'plain') {
        plainJob = { id: data.id, graph: data.graph, stale };
        setTimeout(() => storePlain(pc, data.id), PLAIN_AFTER_MS);
      }
    } catch (err) {
      self.postMessage({
        type: 'graph', id: data.id, ok: false, error: err.message, ms: performance.now() - started,
        memory: pc.exports.memory.buffer.byteLength,
      });
    }
  }
};

function progress(id, stage, loaded, total) {
  self.postMessage({ type: 'graph-progress', id, stage, loaded, total });
}

/** The cache key of a graph: its URL with its hash, so that a new file is a new entry. */
function cacheKey(graph, base) {
  const url = new URL(`graphs/${graph.file}`, base);
  url.searchParams.set('v', graph.sha256.slice(0, 16));
  return url.href;
}

/** The cache's key of the graph's entry (the download as it came). */
function rawKey(key) {
  return `${key}&raw=1`;
}

async function loadGraph(pc, { id, graph, base }) {
  const key = cacheKey(graph, base);
  const stored = rawKey(key);
  const attempts = [];
  const plain = await loadPlain(pc, id, graph, attempts);
  if (plain) return plain;
  const cache = await caches.open(CACHE);
  // Entries of the same file with another hash are old versions: let them go.
  for (const request of await cache.keys()) {
    const url = new URL(request.url);
    if (url.pathname.endsWith(`/graphs/${graph.file}`) && request.url !== stored) await cache.delete(request);
  }
  let cached = await cache.match(stored);
  if (graph.coding !== 'zstd') throw new Error(`graph: ${graph.file}: coding ${graph.coding}, not zstd`);
  for (let attempt = 0; attempt < 2; attempt++) {
    const fromCache = !!cached;
    const timing = { fromCache, downloadMs: 0, decodeMs: 0 };
    let entry = null;
    let body;
    // What the cache keeps: the download as it came (zstd), or, from an earlier version of
    // the page, the file laid out plainly; each entry says its coding and length.
    let coding = 'zstd';
    let length = graph.raw;
    if (cached) {
      body = cached.body;
      coding = cached.headers.get('x-pc-coding') ?? 'none';
      length = Number(cached.headers.get('x-pc-bytes') ?? graph.raw);
    } else {
      progress(id, 'download', 0, graph.bytes);
      const response = await fetch(key, { cache: 'no-store' });
      if (!response.ok) throw new Error(`graph: ${graph.file}: HTTP ${response.status}`);
      // The download goes to the module and, as it came, to the cache (compressed, a
      // fraction of what it decompresses to, so the cache never holds the download back).
      body = response.body;
      entry = openKeeper({
        cache: CACHE, key: stored,
        headers: { 'content-type': 'application/octet-stream', 'x-pc-coding': 'zstd', 'x-pc-bytes': String(graph.raw) },
      });
    }
    try {
      const t0 = performance.now();
      const begun = pc.call({
        op: 'graph_begin', kicks: graph.kicks, drop: graph.drop, bytes: length, coding,
      });
      if (!begun.ok) throw new Error(begun.error);
      const total = coding === 'zstd' ? graph.bytes : length;
      const streamed = await streamInto(pc, body, entry, graph, fromCache ? 'cache' : 'download', id, total);
      timing.downloadMs = performance.now() - t0;
      timing.moduleMs = streamed.moduleMs;
      timing.chunks = streamed.chunks;
      timing.reader = streamed.reader;
      timing.keeper = entry?.where;
      const t1 = performance.now();
      const answer = pc.call({ op: 'graph' });
      timing.decodeMs = performance.now() - t1;
      if (pc.broken) throw new Error(answer.error ?? 'graph: the module stopped');
      if (!answer.ok) throw new Error(answer.error);
      // A cache that failed costs the next visit a download, not this one its graph.
      const put = await entry?.stored;
      if (put) timing.cacheError = put;
      entry?.close();
      // An earlier version of the page kept the plain layout in the cache: once the plain
      // file is written, that entry goes.
      const stale = coding === 'none' ? { cache, key: stored } : null;
      return { info: answer, ...timing, source: fromCache ? 'cache' : 'download', attempts, coding, stale };
    } catch (err) {
      // Never trusted: out of the cache (the copy under way written or not first), and once
      // more from the site.
      entry?.abort(err.message);
      await entry?.stored;
      entry?.close();
      await cache.delete(stored);
      attempts.push({ fromCache, error: err.message });
      if (pc.broken) throw err;
      cached = null;
      if (attempt === 1) throw err;
    }
  }
  throw new Error('graph: not loaded');
}

/**
 * A cache entry written as its bytes come (keeper.js's `keeper`), in a worker of its own when
 * the browser has workers in workers (`where`: 'worker', else 'inline'): `add(bytes)` copies
 * them (gathered into batches of KEEP_BATCH bytes, whose buffers go to that worker),
 * `abort(reason)` writes nothing, `stored` says whether it was written (null, or why not),
 * `close()` ends that worker once `stored` has said. Call `end()` after the last bytes.
 */
function openKeeper(job) {
  if (typeof Worker !== 'function') {
    const inline = import('./keeper.js').then(({ keeper }) => keeper(job));
    const then = (use) => inline.then(use, () => {});
    return {
      add(bytes) {
        // A copy now: the bytes' buffer is read into again.
        const copy = bytes.slice();
        then((k) => k.add(copy));
      },
      end: () => then((k) => k.end()),
      abort: (reason) => then((k) => k.abort(reason)),
      stored: inline.then((k) => k.stored, (err) => String(err.message ?? err)),
      where: 'inline',
      close() {},
    };
  }
  const helper = new Worker(new URL('keeper.js', import.meta.url), { type: 'module', name: 'pc-keeper' });
  const stored = new Promise((resolve) => {
    helper.onmessage = ({ data }) => resolve(data.error);
    helper.onerror = (event) => {
      event.preventDefault?.();
      resolve(`the cache's worker failed (${event.message ?? 'no reason given'})`);
    };
  });
  helper.postMessage(job);
  let batch = new Uint8Array(KEEP_BATCH);
  let filled = 0;
  const send = () => {
    const full = filled === batch.byteLength ? batch : batch.slice(0, filled);
    helper.postMessage(full.buffer, [full.buffer]);
    batch = new Uint8Array(KEEP_BATCH);
    filled = 0;
  };
  return {
    add(bytes) {
      for (let at = 0; at < bytes.byteLength;) {
        const n = Math.min(bytes.byteLength - at, batch.byteLength - filled);
        batch.set(bytes.subarray(at, at + n), filled);
        filled += n;
        at += n;
        if (filled === batch.byteLength) send();
      }
    },
    end() {
      if (filled > 0) send();
      helper.postMessage({ end: true });
    },
    abort: (reason) => helper.postMessage({ abort: reason }),
    stored,
    where: 'worker',
    close: () => helper.terminate(),
  };
}

/**
 * Hands a stream of the graph's bytes to the module chunk by chunk, and to `entry` (an
 * openKeeper, or null); the progress counts the bytes read of `total`. The bytes are read
 * into one buffer of this worker where the browser can (a BYOB reader), so that reading
 * leaves no chunks behind in its heap. A chunk the module refuses ends the stream:
 * {op: 'graph'} says why. Returns the time spent in the module (the rest waited for bytes),
 * the chunks' count and the reader's kind ('byob' or 'chunks').
 */
async function streamInto(pc, body, entry, graph, stage, id, total) {
  let reader;
  let buffer = null;
  try {
    reader = body.getReader({ mode: 'byob' });
    buffer = new ArrayBuffer(READ_BUFFER);
  } catch (_) {
    reader = body.getReader();
  }
  let read = 0;
  let lastReport = 0;
  let moduleMs = 0;
  let chunks = 0;
  const push = (chunk, last) => {
    const started = performance.now();
    const e = pc.exports;
    const ptr = e.pc_graph_chunk(chunk.byteLength) >>> 0;
    // The memory may have grown since the last call: take the buffer afresh each time.
    new Uint8Array(e.memory.buffer, ptr, chunk.byteLength).set(chunk);
    const ok = (e.pc_graph_push(last ? 1 : 0) >>> 0) !== 0xffffffff;
    moduleMs += performance.now() - started;
    chunks += 1;
    return ok;
  };
  const result = () => ({ moduleMs, chunks, reader: buffer ? 'byob' : 'chunks' });
  try {
    for (;;) {
      const { done, value } = buffer ? await reader.read(new Uint8Array(buffer)) : await reader.read();
      if (done) break;
      read += value.byteLength;
      const ok = push(value, false);
      entry?.add(value);
      if (buffer) buffer = value.buffer;
      if (!ok) {
        reader.cancel().catch(() => {});
        return result();
      }
      const now = performance.now();
      if (now - lastReport > 100) {
        lastReport = now;
        progress(id, stage, read, total);
      }
    }
  } catch (err) {
    throw new Error(`graph: ${graph.file}: the download stopped (${err.message})`);
  }
  entry?.end();
  push(new Uint8Array(0), true);
  progress(id, stage, total, total);
  return result();
}

/** The folder of the origin private file system that keeps the graphs laid out plainly. */
async function plainFolder() {
  const root = await navigator.storage.getDirectory();
  return root.getDirectoryHandle(CACHE, { create: true });
}

/** The name of a graph's plain file: the served file's name with its hash. */
function plainName(graph) {
  return `${graph.file}.${graph.sha256.slice(0, 16)}.plain`;
}

/** Puts the file written whole under `partial` in the place of `name`. */
async function renameWhole(folder, partial, name) {
  const file = await folder.getFileHandle(partial);
  await folder.removeEntry(name).catch(() => {});
  await file.move(name);
}

/** Closes the handle of a file left half written (if open) and deletes the file. */
async function dropPartial(folder, handle, partial) {
  try {
    handle?.close();
  } catch (_) {
    // closed already
  }
  await folder?.removeEntry(partial).catch(() => {});
}

/** The name of the file that keeps what a walk of five unknown pieces reads on a graph. */
function preparedName(graph) {
  return `${graph.file}.${graph.sha256.slice(0, 16)}.five`;
}

/**
 * Reads what a walk of five unknown pieces reads from the file kept beside the graph, into
 * the module, which checks it against the loaded graph: {ms, bytes} once taken, null when
 * there is no file (or no OPFS), {error} when it failed (the file is then deleted).
 */
async function loadPrepared(pc, graph, id) {
  if (!navigator.storage?.getDirectory || !self.FileSystemSyncAccessHandle) return null;
  const name = preparedName(graph);
  let folder;
  let handle;
  try {
    folder = await plainFolder();
    handle = await (await folder.getFileHandle(name)).createSyncAccessHandle();
  } catch (_) {
    return null;
  }
  // A load asked for since holds the module now: this file is not for it.
  if (id !== loadedId) {
    handle.close();
    return null;
  }
  const started = performance.now();
  const e = pc.exports;
  let bytes = 0;
  try {
    bytes = handle.getSize();
    // It is a fraction of the graph it was made of: a larger file is not one.
    if (bytes > graph.raw) throw new Error(`prepared: ${bytes} bytes, more than the graph's`);
    const at = e.pc_graph_prepared_buffer(bytes) >>> 0;
    if (at === 0 && bytes > 0) throw new Error('prepared: no memory for the file');
    if (handle.read(new Uint8Array(e.memory.buffer, at, bytes), { at: 0 }) !== bytes) {
      throw new Error('prepared: the file ended early');
    }
    const answer = pc.call({ op: 'graph_prepared_load' });
    if (pc.broken) throw new Error(answer.error ?? 'prepared: the module stopped');
    if (!answer.ok) throw new Error(answer.error);
  } catch (err) {
    try {
      handle.close();
      if (!pc.broken) e.pc_graph_prepared_buffer(0);
    } catch (_) {
      // the module or the handle failed already: the file goes all the same
    }
    await folder.removeEntry(name).catch(() => {});
    return { error: err.message };
  }
  handle.close();
  return { ms: performance.now() - started, bytes };
}

/**
 * Fetches the site's copy of what a walk of five unknown pieces reads on the loaded graph
 * (`graph.prepared`: {file, coding 'zstd', bytes, raw}) into the module, which decompresses it
 * to `raw` bytes and checks it against the graph; then keeps it in the file beside the graph.
 * Reports {type: 'graph-prepared', from: 'site'} with the time or the error; never throws. A
 * copy refused (or a fetch that fails) leaves the worker to make it (`prepared` false).
 */
async function fetchPrepared(pc, graph, base, id) {
  const started = performance.now();
  const served = graph.prepared;
  let error = null;
  try {
    if (served.coding !== 'zstd') throw new Error(`prepared: ${served.file}: coding ${served.coding}, not zstd`);
    const url = new URL(`graphs/${served.file}`, base);
    url.searchParams.set('v', served.sha256.slice(0, 16));
    const response = await fetch(url);
    if (!response.ok) throw new Error(`prepared: ${served.file}: HTTP ${response.status}`);
    const packed = new Uint8Array(await response.arrayBuffer());
    // A load asked for since holds the module now: this copy is not for it.
    if (id !== loadedId) return;
    const e = pc.exports;
    const at = e.pc_graph_prepared_buffer(packed.byteLength) >>> 0;
    if (at === 0 && packed.byteLength > 0) throw new Error('prepared: no memory for the file');
    new Uint8Array(e.memory.buffer, at, packed.byteLength).set(packed);
    const answer = pc.call({ op: 'graph_prepared_load', coding: 'zstd', bytes: served.raw });
    if (pc.broken) throw new Error(answer.error ?? 'prepared: the module stopped');
    if (!answer.ok) throw new Error(answer.error);
  } catch (err) {
    error = String(err.message ?? err);
    if (id === loadedId) prepared = false;
    try {
      if (!pc.broken) pc.exports.pc_graph_prepared_buffer(0);
    } catch (_) {
      // the module failed already
    }
  }
  self.postMessage({
    type: 'graph-prepared', id, from: 'site', bytes: served.bytes, ms: performance.now() - started,
    error: error ?? undefined,
  });
  if (!error) await storePrepared(pc, id);
}

/**
 * Keeps what a walk of five unknown pieces reads on the loaded graph in a file beside it, once
 * the module has made it, under a name of its own renamed once whole (as the plain file);
 * once per load, whatever comes of it.
 */
async function storePrepared(pc, id) {
  const graph = graphEntry;
  if (preparedKept || id === null || id !== loadedId || !graph || pc.broken) return;
  if (!navigator.storage?.getDirectory || !self.FileSystemSyncAccessHandle) return;
  const e = pc.exports;
  const started = performance.now();
  // The bytes copied out of the module now (none while it has not made them), so that
  // nothing the module does during the awaits below touches them.
  const len = e.pc_graph_prepared_save() >>> 0;
  if (len === 0xffffffff) return;
  const bytes = new Uint8Array(e.memory.buffer, e.pc_graph_prepared_bytes() >>> 0, len).slice();
  e.pc_graph_prepared_buffer(0);
  preparedKept = true;
  const name = preparedName(graph);
  const partial = `${name}.partial`;
  let folder = null;
  let handle = null;
  let error = null;
  try {
    folder = await plainFolder();
    handle = await (await folder.getFileHandle(partial, { create: true })).createSyncAccessHandle();
    handle.truncate(0);
    if (handle.write(bytes, { at: 0 }) !== len) throw new Error('the disk took less than the file');
    handle.flush();
    handle.close();
    handle = null;
    await renameWhole(folder, partial, name);
  } catch (err) {
    error = err;
    await dropPartial(folder, handle, partial);
  }
  self.postMessage({
    type: 'graph-prepared-kept', id, bytes: len, ms: performance.now() - started,
    error: error ? String(error.message ?? error) : undefined,
  });
}

/**
 * Reads the graph's plain file from the origin private file system into the module, chunk by
 * chunk straight into its memory; the load's result, or null when there is none to read (no
 * OPFS, no file, another tab holding it) or it failed the checks (then it is deleted, and
 * `attempts` says why).
 */
async function loadPlain(pc, id, graph, attempts) {
  if (!navigator.storage?.getDirectory || !self.FileSystemSyncAccessHandle) return null;
  const name = plainName(graph);
  let folder;
  let handle;
  try {
    folder = await plainFolder();
    // Files of the same graph with another hash are old versions: let them go.
    const current = [name, preparedName(graph)];
    for await (const old of folder.keys()) {
      if (!current.includes(old) && old.startsWith(`${graph.file}.`)) await folder.removeEntry(old).catch(() => {});
    }
    handle = await (await folder.getFileHandle(name)).createSyncAccessHandle();
  } catch (_) {
    return null;
  }
  const timing = { fromCache: true, source: 'plain', downloadMs: 0, decodeMs: 0, moduleMs: 0, chunks: 0 };
  let answer;
  try {
    const length = handle.getSize();
    const t0 = performance.now();
    const begun = pc.call({
      op: 'graph_begin', kicks: graph.kicks, drop: graph.drop, bytes: length, coding: 'none',
    });
    if (!begun.ok) throw new Error(begun.error);
    const e = pc.exports;
    let at = 0;
    let lastReport = 0;
    for (;;) {
      const n = Math.min(PLAIN_CHUNK, length - at);
      const ptr = e.pc_graph_chunk(n) >>> 0;
      // The memory may have grown since the last call: take the buffer afresh each time.
      if (n > 0 && handle.read(new Uint8Array(e.memory.buffer, ptr, n), { at }) !== n) {
        throw new Error('graph: the plain file ended early');
      }
      at += n;
      timing.chunks += 1;
      if ((e.pc_graph_push(n === 0 ? 1 : 0) >>> 0) === 0xffffffff || n === 0) break;
      const now = performance.now();
      if (now - lastReport > 100) {
        lastReport = now;
        progress(id, 'cache', at, length);
      }
    }
    timing.downloadMs = performance.now() - t0;
    timing.moduleMs = timing.downloadMs;
    const t1 = performance.now();
    answer = pc.call({ op: 'graph' });
    timing.decodeMs = performance.now() - t1;
    if (pc.broken) throw new Error(answer.error ?? 'graph: the module stopped');
    if (!answer.ok) throw new Error(answer.error);
  } catch (err) {
    handle.close();
    // Never trusted: deleted, and read again from the cached download or the site.
    await folder.removeEntry(name).catch(() => {});
    attempts.push({ fromCache: true, source: 'plain', error: err.message });
    if (pc.broken) throw err;
    return null;
  }
  handle.close();
  return { info: answer, ...timing, attempts, coding: 'none' };
}

/**
 * Writes the loaded graph's file in the plain layout into the origin private file system, a
 * chunk at a time (solves go between them), under a name of its own that is renamed once the
 * file is whole. Anything that fails leaves no file of that name; a load since (another job)
 * stops it.
 */
async function storePlain(pc, id) {
  const job = plainJob;
  if (!job || job.id !== id || pc.broken) return;
  plainJob = null;
  const started = performance.now();
  const e = pc.exports;
  const name = plainName(job.graph);
  const partial = `${name}.partial`;
  let folder = null;
  let handle = null;
  let error = null;
  let len = 0;
  try {
    if (!navigator.storage?.getDirectory || !self.FileSystemSyncAccessHandle) {
      throw new Error('this browser has no origin private file system');
    }
    len = e.pc_graph_plain_begin() >>> 0;
    if (len === 0xffffffff) throw new Error('no graph to write');
    folder = await plainFolder();
    handle = await (await folder.getFileHandle(partial, { create: true })).createSyncAccessHandle();
    handle.truncate(0);
    let at = 0;
    for (;;) {
      // Between chunks the worker takes its messages: a load since lets the file go (-1).
      await new Promise((resolve) => setTimeout(resolve, 0));
      if (pc.broken) throw new Error('the module stopped');
      const n = e.pc_graph_plain_next() >>> 0;
      if (n === 0xffffffff) throw new Error('another graph was loaded');
      if (n === 0) break;
      const view = new Uint8Array(e.memory.buffer, e.pc_graph_plain_bytes() >>> 0, n);
      if (handle.write(view, { at }) !== n) throw new Error('the disk took less than a chunk');
      at += n;
    }
    if (at !== len) throw new Error(`wrote ${at} bytes of ${len}`);
    handle.flush();
    handle.close();
    handle = null;
    await renameWhole(folder, partial, name);
    if (job.stale) await job.stale.cache.delete(job.stale.key).catch(() => {});
  } catch (err) {
    error = err;
    await dropPartial(folder, handle, partial);
  }
  self.postMessage({
    type: 'graph-cached', id, layout: error ? null : 'plain', bytes: len, ms: performance.now() - started,
    error: error ? String(error.message ?? error) : undefined,
  });
}
