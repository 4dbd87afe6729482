/**
 * Property suites are bounded by their number of runs (`numRuns`), not by time: how long those runs
 * take depends on the machine's load, so their verdict must not. This only stops a suite that hangs.
 */
export const PROPERTY_SUITE_TIMEOUT_MS = 10 * 60_000;
