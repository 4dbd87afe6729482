/**
 * How to run each bundle in dist/ on a path that needs no network: the bundle test runs each once
 * and checks its answer; the start-up benchmark times them.
 */
export const MAIN_INPUTS: Readonly<Record<string, Record<string, string>>> = {
  'record-deployment': { 'api-url': '', environment: 'production', status: 'success' },
  'request-token': { 'broker-url': '', 'app-name': 'Gatehouse' },
  gate: { base: '', sarif: '/nonexistent.sarif' },
  sync: { command: 'sync', 'defectdojo-token': 'dd-smoke-token' },
};

/** Post steps (`dist/<name>/post/index.js`), run with no saved state. */
export const POST_INPUTS: Readonly<Record<string, Record<string, string>>> = {
  'request-token': {},
};

/** Command-line bundles (`dist/<name>/cli/index.js`). */
export const CLI_ARGS = ['--help'];
