// The solver's thread. Messages from the page:
//   {type: 'init', module}                       once, the compiled module
//   {type: 'solve', id, form, op, extra}         -> {type: 'answer', id, answer, ms, memory, broken}
//                                                   (op: 'solve', Play mode's 'play_solve', or
//                                                   'path' with extra {pattern, list})
//   {type: 'graph', id, graph, base}             -> {type: 'graph-progress', id, stage, loaded, total}…
//                                                   then {type: 'graph', id, ok, info | error, ms, …}
// A solve cannot be interrupted inside the module: the page cancels by terminating this
// worker and starting another (which loads the graph again, from the browser's cache).
//
// The graph: the page names a file of graphs/index.json ({file, kicks, drop, coding, bytes,
// raw, sha256}). The site serves it zstd-compressed (coding 'zstd'); the module reads it as
// it streams in, chunk by chunk, decompressing it as it goes ({op: 'graph_begin'},
// pc_graph_chunk, pc_graph_push), so the file is never whole in memory beside the graph.
// The module hands back the decompressed bytes, which go to the Cache API at the same time;
// a later visit streams them from there (no decompression). Then the module finishes the
// graph ({op: 'graph'}). A file that fails the checks is deleted from the cache and
// downloaded once more; failing again, it is reported and never used.
import { Pc } from './pc.js';

const CACHE = 'pc-graphs';
let ready = null;

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
    const started = performance.now();
    const answer = pc.call({ ...data.extra, op: data.op ?? 'solve', form: data.form });
    const ms = performance.now() - started;
    const memory = pc.exports.memory.buffer.byteLength;
    self.postMessage({ type: 'answer', id: data.id, answer, ms, memory, broken: pc.broken });
  } else if (data.type === 'graph') {
    const started = performance.now();
    try {
      const result = await loadGraph(pc, data);
      self.postMessage({
        type: 'graph', id: data.id, ok: true, ...result, ms: performance.now() - started,
        memory: pc.exports.memory.buffer.byteLength,
      });
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

/** The cache's key of the decompressed bytes (what the cache keeps). */
function rawKey(key) {
  return `${key}&raw=1`;
}

async function loadGraph(pc, { id, graph, base }) {
  const key = cacheKey(graph, base);
  const stored = rawKey(key);
  const cache = await caches.open(CACHE);
  // Entries of the same file with another hash are old versions: let them go.
  for (const request of await cache.keys()) {
    const url = new URL(request.url);
    if (url.pathname.endsWith(`/graphs/${graph.file}`) && request.url !== stored) await cache.delete(request);
  }
  let cached = await cache.match(stored);
  const attempts = [];
  if (graph.coding !== 'zstd') throw new Error(`graph: ${graph.file}: coding ${graph.coding}, not zstd`);
  for (let attempt = 0; attempt < 2; attempt++) {
    const fromCache = !!cached;
    const timing = { fromCache, downloadMs: 0, decodeMs: 0 };
    let storing = null;
    let toCache = null;
    let body;
    let counted = () => 0;
    if (cached) {
      body = cached.body;
    } else {
      progress(id, 'download', 0, graph.bytes);
      const response = await fetch(key, { cache: 'no-store' });
      if (!response.ok) throw new Error(`graph: ${graph.file}: HTTP ${response.status}`);
      body = response.body;
      // What the module decompresses, as it does, for the cache: at most 8 MiB waits for the
      // cache to take it (the download waits beyond that), so the page never holds the file.
      const { readable, writable } = new TransformStream({}, new ByteLengthQueuingStrategy({ highWaterMark: 8 << 20 }));
      toCache = writable.getWriter();
      storing = cache.put(stored, new Response(readable, { headers: { 'content-type': 'application/octet-stream' } }))
        .catch((err) => err);
    }
    try {
      const t0 = performance.now();
      const begun = pc.call({
        op: 'graph_begin', kicks: graph.kicks, drop: graph.drop, bytes: graph.raw,
        coding: fromCache ? 'none' : 'zstd',
      });
      if (!begun.ok) throw new Error(begun.error);
      await streamInto(pc, body, graph, fromCache ? 'cache' : 'download', id, toCache);
      timing.downloadMs = performance.now() - t0;
      const t1 = performance.now();
      const answer = pc.call({ op: 'graph' });
      timing.decodeMs = performance.now() - t1;
      if (pc.broken) throw new Error(answer.error ?? 'graph: the module stopped');
      if (!answer.ok) throw new Error(answer.error);
      // A cache that failed costs the next visit a download, not this one its graph.
      await toCache?.close().catch(() => {});
      const put = await storing;
      if (put instanceof Error) timing.cacheError = put.message;
      return { info: answer, ...timing, attempts };
    } catch (err) {
      // Never trusted: out of the cache, and once more from the site.
      await toCache?.abort(err).catch(() => {});
      await storing;
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
 * Hands a stream of the graph's bytes to the module chunk by chunk, and what it decompresses
 * to `toCache` (a stream writer, when downloading); the progress counts the bytes downloaded
 * (compressed) or read from the cache. A chunk the module refuses ends the stream: {op: 'graph'} says why.
 */
async function streamInto(pc, body, graph, stage, id, toCache) {
  const reader = body.getReader();
  const total = stage === 'download' ? graph.bytes : graph.raw;
  let read = 0;
  let lastReport = 0;
  const push = async (chunk, last) => {
    const e = pc.exports;
    const ptr = e.pc_graph_chunk(chunk.byteLength) >>> 0;
    // The memory may have grown since the last call: take the buffer afresh each time.
    new Uint8Array(e.memory.buffer, ptr, chunk.byteLength).set(chunk);
    const decoded = e.pc_graph_push(last ? 1 : 0) >>> 0;
    if (decoded === 0xffffffff) return false;
    if (decoded > 0 && toCache) {
      // A cache that fails (full) never stops the load.
      await toCache.ready.catch(() => {});
      toCache.write(new Uint8Array(e.memory.buffer, e.pc_graph_decoded() >>> 0, decoded).slice()).catch(() => {});
    }
    return true;
  };
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      read += value.byteLength;
      if (!(await push(value, false))) {
        reader.cancel().catch(() => {});
        return;
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
  await push(new Uint8Array(0), true);
  progress(id, stage, total, total);
}
