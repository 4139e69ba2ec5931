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
// The graph: the page names a file of graphs/index.json ({file, kicks, drop, bytes, raw,
// sha256}). Downloaded, it is decompressed as it streams (DecompressionStream('gzip'))
// straight into the module's graph buffer (pc_graph_input(raw)), and the decompressed bytes
// go to the Cache API at the same time; a later visit reads them from there (no
// decompression: it took a second of the three a load from the cache took). Then the
// module checks and reads them ({op: 'graph'}). A file that fails the checks is deleted
// from the cache and downloaded once more; failing again, it is reported and never used.
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
  for (let attempt = 0; attempt < 2; attempt++) {
    const fromCache = !!cached;
    let storing = null;
    let body;
    if (cached) {
      body = cached.body;
    } else {
      progress(id, 'download', 0, graph.bytes);
      const response = await fetch(key, { cache: 'no-store' });
      if (!response.ok) throw new Error(`graph: ${graph.file}: HTTP ${response.status}`);
      let compressed = 0;
      const [toModule, toCache] = response.body
        .pipeThrough(new TransformStream({
          transform(chunk, controller) {
            compressed += chunk.byteLength;
            controller.enqueue(chunk);
          },
        }))
        .pipeThrough(new DecompressionStream('gzip'))
        .tee();
      body = toModule;
      body.compressed = () => compressed;
      storing = cache.put(stored, new Response(toCache, { headers: { 'content-type': 'application/octet-stream' } }))
        .catch((err) => err);
    }
    const timing = { fromCache, downloadMs: 0, decodeMs: 0 };
    try {
      const t0 = performance.now();
      await copyInto(pc, body, graph, fromCache ? 'cache' : 'download', id);
      timing.downloadMs = performance.now() - t0;
      const put = await storing;
      if (put instanceof Error) timing.cacheError = put.message;
      progress(id, 'check', graph.raw, graph.raw);
      const t1 = performance.now();
      const answer = pc.call({ op: 'graph', kicks: graph.kicks, drop: graph.drop });
      timing.decodeMs = performance.now() - t1;
      if (pc.broken) throw new Error(answer.error ?? 'graph: the module stopped');
      if (!answer.ok) throw new Error(answer.error);
      return { info: answer, ...timing, attempts };
    } catch (err) {
      // Never trusted: out of the cache, and once more from the site.
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
 * Copies a stream of the graph's bytes into the module's graph buffer; the progress counts
 * the bytes downloaded (compressed) or read from the cache.
 */
async function copyInto(pc, body, graph, stage, id) {
  const reader = body.getReader();
  const ptr = pc.exports.pc_graph_input(graph.raw) >>> 0;
  let written = 0;
  let lastReport = 0;
  const [done, total] = stage === 'download' ? [() => body.compressed(), graph.bytes] : [() => written, graph.raw];
  try {
    for (;;) {
      const { done: end, value } = await reader.read();
      if (end) break;
      if (written + value.byteLength > graph.raw) {
        throw new Error(`graph: ${graph.file} inflates to more than the ${graph.raw} bytes graphs/index.json gives`);
      }
      // The memory may have grown since the last chunk (a solve in between): take the
      // buffer afresh each time.
      new Uint8Array(pc.exports.memory.buffer, ptr + written, value.byteLength).set(value);
      written += value.byteLength;
      const now = performance.now();
      if (now - lastReport > 100) {
        lastReport = now;
        progress(id, stage, done(), total);
      }
    }
  } catch (err) {
    pc.exports.pc_graph_input(0);
    throw err.message?.startsWith('graph:') ? err : new Error(`graph: ${graph.file} does not decompress (${err.message})`);
  }
  if (written !== graph.raw) {
    pc.exports.pc_graph_input(0);
    throw new Error(`graph: ${graph.file} has ${written} bytes, not the ${graph.raw} graphs/index.json gives`);
  }
  progress(id, stage, total, total);
}
