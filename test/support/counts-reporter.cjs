'use strict';
// Mocha's spec reporter plus one plain closing line, "N passed, N failed[, N skipped]", taken
// from mocha's own statistics. CI reads that line (mocha's "passing/failing" summary is not read).
const Mocha = require('mocha');

const { EVENT_RUN_END } = Mocha.Runner.constants;

class CountsReporter extends Mocha.reporters.Spec {
  constructor(runner, options) {
    super(runner, options);
    runner.once(EVENT_RUN_END, () => {
      const { passes, failures, pending } = this.stats;
      const skipped = pending > 0 ? `, ${pending} skipped` : '';
      process.stdout.write(`\n${passes} passed, ${failures} failed${skipped}\n`);
    });
  }
}

module.exports = CountsReporter;
