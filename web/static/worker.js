// The solver's thread: the page posts {type: 'init', module} once, then
// {type: 'solve', id, form}; each solve is answered by {type: 'answer', id, answer, ms,
// memory, broken} (ms: the call's time; memory: the module's memory size in bytes).
// A solve cannot be interrupted inside the module: the page cancels by terminating this
// worker and starting another.
import { Pc } from './pc.js';

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
  if (data.type === 'solve') {
    const pc = await ready;
    const started = performance.now();
    const answer = pc.call({ op: 'solve', form: data.form });
    const ms = performance.now() - started;
    const memory = pc.exports.memory.buffer.byteLength;
    self.postMessage({ type: 'answer', id: data.id, answer, ms, memory, broken: pc.broken });
  }
};
