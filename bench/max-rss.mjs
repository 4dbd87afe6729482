// Loaded with `node --import` into a measured process: reports its peak resident memory at exit.
process.on('exit', () => {
  process.stderr.write(`\nBENCH_MAX_RSS_KB=${process.resourceUsage().maxRSS}\n`);
});
