// Loaded with `node --expose-gc --import` into a server under a load run: once a second, a full
// collection and then the heap still in use, appended to BENCH_HEAP_FILE. Retained heap rising
// run after run is a leak; resident memory alone also moves with V8 sizing its heap.
import { appendFileSync } from 'node:fs';

const file = process.env.BENCH_HEAP_FILE;
if (file && typeof globalThis.gc === 'function') {
  setInterval(() => {
    globalThis.gc();
    globalThis.gc();
    appendFileSync(file, `${process.memoryUsage().heapUsed}\n`);
  }, 1000).unref();
}
