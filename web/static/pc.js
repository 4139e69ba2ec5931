// The other side of web/src/ffi.rs: a JSON request in, a JSON answer out, through the
// module's memory. Used by the page (quick requests) and by the worker (solves).

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * Fetches and compiles pc_web.wasm: streaming when the server sends `application/wasm` (the
 * browser may then cache the optimised code for the next visit), from the bytes otherwise,
 * so any static server will do.
 */
export async function compileModule(url = new URL('pc_web.wasm', import.meta.url)) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url.pathname}: HTTP ${response.status}`);
  const size = Number(response.headers.get('content-length')) || null;
  if (response.headers.get('content-type') === 'application/wasm') {
    return { module: await WebAssembly.compileStreaming(response), size };
  }
  const bytes = await response.arrayBuffer();
  return { module: await WebAssembly.compile(bytes), size: bytes.byteLength };
}

/** One instance of the module. After a trap it answers nothing more: make a new one. */
export class Pc {
  static async create(module) {
    const instance = await WebAssembly.instantiate(module, {});
    return new Pc(instance.exports);
  }

  constructor(exports) {
    this.exports = exports;
    this.broken = false;
  }

  /** Sends one request object, returns the answer object ({ok: true, ...} or {ok: false, error, input}). */
  call(request) {
    if (this.broken) {
      return { ok: false, error: 'internal error: the solver stopped earlier; reload the page', input: 'position' };
    }
    const e = this.exports;
    const bytes = encoder.encode(JSON.stringify(request));
    const ptr = e.pc_input(bytes.length) >>> 0;
    new Uint8Array(e.memory.buffer, ptr, bytes.length).set(bytes);
    try {
      return this.read(e.pc_call() >>> 0);
    } catch (err) {
      // A trap. A panic has left its message as the answer (ffi.rs); anything else
      // (running out of memory) has not.
      this.broken = true;
      try {
        const answer = this.read(e.pc_output_len() >>> 0);
        if (answer.ok === false && answer.error.startsWith('internal error')) return answer;
      } catch (_) {
        // fall through
      }
      return {
        ok: false,
        error: `the solver stopped (${err.message}); it may have run out of memory`,
        input: 'position',
      };
    }
  }

  read(len) {
    const ptr = this.exports.pc_output() >>> 0;
    return JSON.parse(decoder.decode(new Uint8Array(this.exports.memory.buffer, ptr, len)));
  }
}
