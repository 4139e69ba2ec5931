// The solver's worker as the page uses it: one solve at a time, the most urgent first (the
// position on screen before the ones Play mode's review still wants), the PC field graph
// of the rules in use, and a fresh worker when a solve is cancelled.
//
// Events ('graph'): detail {state, stage, loaded, total, info, error, ms, fromCache, source,
// cached}, state one of 'none' (the site has no graph for these rules), 'off' (the player
// turned it off), 'loading', 'ready', 'failed'; source 'plain' (the plain file the browser
// keeps), 'cache' (the cached download) or 'download'; cached 'plain' once the browser keeps
// the graph in the layout that loads fastest ('failed' when writing it failed); renewed
// {ms, source, memory} once a fresh worker has read that plain file in the place of the
// worker that downloaded the graph (see renew); preparedMs once the worker has made what a
// walk of five unknown pieces reads, preparedFrom 'file' when it read that from the file the
// browser keeps (preparedReadMs) or 'site' when it took the site's copy (preparedMs the time
// from the graph ready to it taken; preparedError when the copy was refused), preparedKept
// 'file' once that file is kept (read from it or written; 'failed' when writing failed).

/** What a 'graph' message says of the file of what five unknown pieces read (see worker.js):
 * read from it, that file is kept. */
function preparedFrom(data) {
  if (data.prepared?.ms === undefined) return {};
  return { preparedFrom: 'file', preparedReadMs: data.prepared.ms, preparedKept: 'file' };
}

/** How long solves wait for a graph that downloads (see SolverClient.waitsForGraph). */
const GRAPH_GRACE = 8000;

export class SolverClient extends EventTarget {
  constructor(module, base) {
    super();
    this.module = module;
    this.base = base; // the site's address, for graphs/
    this.worker = null;
    this.running = null; // the job in the worker
    this.pending = []; // jobs waiting
    this.seq = 0;
    this.index = null; // graphs/index.json
    this.graphWanted = null; // {kicks, drop}
    this.graphOff = false;
    this.graph = { state: 'none' };
    this.graphJob = 0;
    this.renewing = null; // the graph job of a renewal under way (see renew)
    this.renewWanted = false;
    // How many steps of the worker on what five unknown pieces read (fetched from the site,
    // made, kept in a file) are under way: a renewal waits for them, so that the worker that
    // took the copy keeps it rather than being terminated halfway.
    this.preparing = 0;
    this.indexReady = false;
    this.start();
    this.graphIndex().then(() => {
      this.indexReady = true;
      this.next();
    });
  }

  start() {
    this.spawn();
    if (this.graph.state === 'loading' || this.graph.state === 'ready') this.loadGraph(true);
  }

  /** A new worker in the place of the last (terminated first, so that the two never hold a graph at once). */
  spawn() {
    if (this.worker) this.worker.terminate();
    this.renewing = null;
    this.renewWanted = false;
    this.preparing = 0;
    this.worker = new Worker(new URL('worker.js', import.meta.url), { type: 'module' });
    this.worker.onmessage = ({ data }) => this.receive(data);
    this.worker.onerror = (e) => {
      e.preventDefault();
      this.fail(`the solver failed: ${e.message || 'worker error'}`);
      this.restart();
    };
    this.worker.postMessage({ type: 'init', module: this.module });
  }

  restart() {
    this.running = null;
    this.start();
    this.next();
  }

  /**
   * Once the plain file of a downloaded graph is written and no solve runs, a fresh worker
   * reads that file in the place of the worker that downloaded it: a wasm module's memory
   * never shrinks, and reading the download's layout by piece leaves it above what the
   * plain file needs. The page goes on showing the graph as ready; solves wait the
   * second the read takes.
   */
  renew() {
    if (!this.renewWanted || this.running || this.preparing > 0 || this.graph.state !== 'ready') return;
    const entry = this.graph.entry;
    this.spawn();
    const id = ++this.graphJob;
    this.renewing = id;
    this.worker.postMessage({ type: 'graph', id, graph: entry, base: this.base });
  }

  receive(data) {
    if (data.type === 'failed') this.fail(`the solver could not start: ${data.error}`);
    else if (data.type === 'answer') {
      const job = this.running;
      if (!job || job.id !== data.id) return;
      this.running = null;
      if (data.preparing) this.preparing += 1;
      if (data.broken) this.restart();
      else this.renew();
      job.resolve({ answer: data.answer, ms: data.ms, memory: data.memory, waitedMs: job.startedAt - job.addedAt });
      this.next();
    } else if (data.type === 'graph-progress') {
      if (data.id !== this.graphJob || data.id === this.renewing) return;
      this.setGraph({ ...this.graph, state: 'loading', stage: data.stage, loaded: data.loaded, total: data.total });
    } else if (data.type === 'graph') {
      if (data.id !== this.graphJob) return;
      this.preparing = data.preparing ? 1 : 0;
      if (data.id === this.renewing) {
        this.renewing = null;
        if (data.ok) {
          // A renewed worker that read the file of what five unknown pieces read: that file is
          // kept, whichever worker wrote it (and where it came from, the page said already).
          this.setGraph({
            ...preparedFrom(data), ...this.graph,
            renewed: { ms: data.ms, source: data.source, memory: data.memory },
          });
          return;
        }
      }
      if (data.ok) {
        this.setGraph({
          state: 'ready', info: data.info, ms: data.ms, fromCache: data.fromCache, source: data.source,
          cached: data.source === 'plain' ? 'plain' : undefined, downloadMs: data.downloadMs,
          decodeMs: data.decodeMs, moduleMs: data.moduleMs, chunks: data.chunks, memory: data.memory,
          reader: data.reader, keeper: data.keeper, attempts: data.attempts, entry: this.graph.entry,
          ...preparedFrom(data),
        });
      } else {
        this.setGraph({ state: 'failed', error: data.error, ms: data.ms, entry: this.graph.entry });
      }
    } else if (data.type === 'graph-cached') {
      if (data.id !== this.graphJob || this.graph.state !== 'ready') return;
      this.setGraph({ ...this.graph, cached: data.layout ?? 'failed', cacheMs: data.ms, cacheError: data.error });
      if (data.layout === 'plain' && this.graph.source !== 'plain') {
        this.renewWanted = true;
        this.renew();
      }
    } else if (data.type === 'graph-prepared') {
      if (data.id !== this.graphJob || this.graph.state !== 'ready') return;
      if (data.error) this.setGraph({ ...this.graph, preparedError: data.error });
      else if (data.from === 'site') this.setGraph({ ...this.graph, preparedMs: data.ms, preparedFrom: 'site' });
      else this.setGraph({ ...this.graph, preparedMs: data.ms });
    } else if (data.type === 'graph-prepared-kept') {
      if (data.id !== this.graphJob || this.graph.state !== 'ready') return;
      this.setGraph({ ...this.graph, preparedKept: data.error ? 'failed' : 'file', preparedKeptError: data.error });
    } else if (data.type === 'graph-prepared-done') {
      if (data.id !== this.graphJob || this.preparing === 0) return;
      this.preparing -= 1;
      this.renew();
    }
  }

  fail(message) {
    const job = this.running;
    this.running = null;
    if (job) job.reject(new Error(message));
  }

  /**
   * Asks for a solve of `form`. Jobs with the same key share one answer. Priority 2 is the
   * position on screen (the newest first), 1 a position only the review wants (the oldest
   * first). `op`: 'solve', Play mode's 'play_solve', or 'path' (`extra`: {pattern, list}).
   */
  solve(form, {
    key = JSON.stringify(form), priority = 2, op = 'solve', extra = {},
  } = {}) {
    const same = (this.running && this.running.key === key) ? this.running : this.pending.find((j) => j.key === key);
    if (same) {
      same.priority = Math.max(same.priority, priority);
      same.seq = ++this.seq;
      return same.promise;
    }
    const job = {
      key, form, op, extra, priority, seq: ++this.seq, id: this.seq, addedAt: performance.now(),
    };
    job.promise = new Promise((resolve, reject) => { job.resolve = resolve; job.reject = reject; });
    this.pending.push(job);
    this.next();
    return job.promise;
  }

  /** Lowers every waiting job to priority 1 (the position on screen changed). */
  demote() {
    for (const job of this.pending) job.priority = Math.min(job.priority, 1);
    if (this.running) this.running.priority = Math.min(this.running.priority, 1);
  }

  /** The job running now: {key, startedAt, priority}. */
  current() {
    return this.running;
  }

  /** Stops a job: drops it when waiting, terminates the worker when it runs. */
  cancel(key) {
    const i = this.pending.findIndex((j) => j.key === key);
    if (i >= 0) {
      const [job] = this.pending.splice(i, 1);
      job.reject(Object.assign(new Error('cancelled'), { cancelled: true }));
    }
    if (this.running && this.running.key === key) {
      const job = this.running;
      this.running = null;
      job.reject(Object.assign(new Error('cancelled'), { cancelled: true }));
      this.restart();
    }
  }

  /** Drops every waiting job (not the running one). */
  clearPending() {
    for (const job of this.pending) job.reject(Object.assign(new Error('dropped'), { cancelled: true }));
    this.pending = [];
  }

  /**
   * Solves wait while the graph is read from the browser's cache or checked (seconds: the
   * graph then answers the first decisions of a PC in well under a second), and for the
   * first GRAPH_GRACE ms of a download; past that they are answered without it, as the
   * page says (a solve in the worker holds the download up until it ends).
   */
  waitsForGraph() {
    if (!this.indexReady || this.rulesPending) return true;
    // A renewal another load has not overtaken.
    if (this.renewing !== null && this.renewing === this.graphJob) return true;
    const g = this.graph;
    if (g.state !== 'loading') return false;
    return g.stage !== 'download' || performance.now() - this.graphStarted < GRAPH_GRACE;
  }

  next() {
    if (this.running || this.pending.length === 0 || this.waitsForGraph()) return;
    this.pending.sort((a, b) => b.priority - a.priority || (a.priority >= 2 ? b.seq - a.seq : a.seq - b.seq));
    const job = this.pending.shift();
    job.startedAt = performance.now();
    this.running = job;
    this.worker.postMessage({
      type: 'solve', id: job.id, form: job.form, op: job.op, extra: job.extra,
    });
  }

  // --- the graph -------------------------------------------------------------------------

  /** graphs/index.json, once ({graphs: {}} when the site has none). */
  async graphIndex() {
    if (!this.index) {
      this.index = fetch(new URL('graphs/index.json', this.base), { cache: 'no-cache' })
        .then((r) => (r.ok ? r.json() : { graphs: {} }))
        .catch(() => ({ graphs: {} }));
    }
    return this.index;
  }

  /** The graph of these rules, when the site has one: loaded in the worker. */
  async useRules(kicks, drop) {
    this.graphWanted = { kicks, drop };
    this.rulesPending = true;
    const index = await this.graphIndex();
    if (this.graphWanted.kicks !== kicks || this.graphWanted.drop !== drop) return;
    this.rulesPending = false;
    const entry = Object.values(index.graphs ?? {}).find((g) => g.kicks === kicks && g.drop === drop);
    if (!entry) {
      this.graphJob++;
      this.setGraph({ state: 'none', kicks, drop });
      return;
    }
    if (this.graph.entry === entry && ['loading', 'ready'].includes(this.graph.state)) {
      this.next();
      return;
    }
    this.graph = { state: 'loading', entry };
    if (this.graphOff) {
      this.setGraph({ state: 'off', entry });
      return;
    }
    this.loadGraph(false);
  }

  /** Turns the graph off (nothing downloaded) or on again. */
  setGraphOff(off) {
    this.graphOff = off;
    if (off && this.graph.entry) {
      this.graphJob++;
      if (this.graph.state === 'ready' || this.graph.state === 'loading') this.restart();
      this.setGraph({ state: 'off', entry: this.graph.entry });
    } else if (!off && this.graph.entry && this.graph.state === 'off') {
      this.graph.state = 'loading';
      this.loadGraph(false);
    }
  }

  loadGraph(again) {
    const entry = this.graph.entry;
    if (!entry) return;
    const id = ++this.graphJob;
    this.graphStarted = performance.now();
    setTimeout(() => this.next(), GRAPH_GRACE + 10);
    this.setGraph({ state: 'loading', stage: 'cache', loaded: 0, total: entry.bytes, entry, again });
    this.worker.postMessage({ type: 'graph', id, graph: entry, base: this.base });
  }

  setGraph(graph) {
    this.graph = graph;
    this.dispatchEvent(new CustomEvent('graph', { detail: graph }));
    this.next();
  }
}
