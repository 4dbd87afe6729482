// Loaded with `node --import` into a measured process: reports its peak resident memory at exit,
// and with --expose-gc also the heap still in use after a full collection (what the run retained).
process.on('exit', () => {
  let retained = '';
  if (typeof globalThis.gc === 'function') {
    globalThis.gc();
    retained = `BENCH_HEAP_AFTER_GC_KB=${Math.round(process.memoryUsage().heapUsed / 1024)}\n`;
  }
  process.stderr.write(`\nBENCH_MAX_RSS_KB=${process.resourceUsage().maxRSS}\n${retained}`);
});
