// Keeps a download of a graph file, as it came, in the Cache API, for the solver's worker
// (worker.js), which runs this module as a worker of its own (named 'pc-keeper') and ends it
// once the entry is written. The bytes are copies that the solver's worker hands over (their
// buffers transferred), so that they wait for the cache here and die with this worker: in
// the solver's worker they would stay in its heap, beside the graph, until a collection that
// an idle page may not make for long. A browser without workers in workers keeps the entry
// from the solver's worker itself (keeper).
//
// Messages to this worker: {cache, key, headers} first, then the bytes in order (ArrayBuffers),
// then {end: true}, or {abort: reason} to write nothing. It posts {type: 'stored', error} once
// the entry is written (error: null) or not (why).

/**
 * A cache entry under `key` of the cache `cache` with `headers`, written as its bytes come:
 * `add(bytes)` each in order, then `end()`, or `abort(reason)` to write nothing; `stored`
 * says whether it was written (null, or why not).
 */
export function keeper({ cache, key, headers }) {
  let controller;
  let aborted = null;
  const body = new ReadableStream({
    start(c) {
      controller = c;
    },
  });
  const stored = caches.open(cache)
    .then((entries) => entries.put(key, new Response(body, { headers })))
    .then(() => null, (err) => aborted ?? String(err.message ?? err));
  return {
    add: (bytes) => controller.enqueue(bytes),
    end: () => controller.close(),
    abort: (reason) => {
      aborted = reason;
      controller.error(new Error(reason));
    },
    stored,
  };
}

if (self.name === 'pc-keeper') {
  let entry = null;
  self.onmessage = ({ data }) => {
    if (data instanceof ArrayBuffer) entry?.add(new Uint8Array(data));
    else if (data.key) {
      entry = keeper(data);
      entry.stored.then((error) => self.postMessage({ type: 'stored', error }));
    } else if (data.end) entry?.end();
    else if (data.abort) entry?.abort(data.abort);
  };
}
