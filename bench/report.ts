/** The shape of bench/results.json and its rendering as the table of docs/benchmarks.md. */

/** Every benchmark of `npm run bench`, in run order, each with the time it may take before it is stopped. */
export const BENCHES: readonly { name: string; minutes: number }[] = [
  { name: 'actions', minutes: 2 },
  { name: 'token', minutes: 8 },
  { name: 'token-policy', minutes: 2 },
  { name: 'ledger', minutes: 4 },
  { name: 'gate', minutes: 3 },
  { name: 'sync', minutes: 3 },
  { name: 'load', minutes: 3 },
  { name: 'webhook', minutes: 2 },
  { name: 'console', minutes: 3 },
];

/** The markers in docs/benchmarks.md between which the rendered results go. */
export const START = '<!-- results:start -->';
export const END = '<!-- results:end -->';

export interface BenchFigure {
  readonly bench: string;
  readonly name: string;
  readonly value: number;
  readonly limit: number;
  readonly limit_name: string;
  readonly ratio: number;
  readonly target: string;
  /** Absent for reference figures (no target). */
  readonly met?: boolean;
}

export interface BenchResults {
  readonly meta: {
    readonly date: string;
    readonly node: string;
    readonly platform: string;
    readonly cpus: string;
    readonly memory_gib: number;
    readonly duration_s: number;
  };
  readonly figures: readonly BenchFigure[];
}

const TITLES: Record<string, string> = {
  actions: 'Action start-up and bundle size',
  token: '`POST /token` (200 req/s open loop beside a direct mint at the same rate, GitHub answering each call after 150 ms; CPU at saturation; the burst of 50 as information)',
  'token-policy': '`POST /token` with a 1,000-repository `BROKER_POLICY` beside `/token` without one (interleaved rounds)',
  ledger: 'Ledger (in-memory store, the backend on one core: 200 req/s open loop, then concurrency 50)',
  gate: '`gate ci` (100,000 results, 2,000 changed files)',
  sync: '`gatehouse-sync sync` (Dependency-Track → DefectDojo, 20 ms fakes)',
  load: 'Load (autocannon, concurrency 100; `/token` with its token audit filled to capacity first)',
  webhook: 'Unauthenticated memory (120 slow 10 MB `/webhook` uploads held open)',
  console: 'Console overview (200 repositories × 3 environments, about 108,000 records on the in-memory store, one request at a time)',
};

const group = new Intl.NumberFormat('en-US', { maximumFractionDigits: 1 });

/** A figure's value or limit (both in one unit) in the unit its name carries (`…_ms`, `…bytes_500`, `.rps`). */
export function formatValue(name: string, value: number): string {
  const words = new Set(name.split(/[._/]/));
  if (words.has('ms')) return `${group.format(value)} ms`;
  if (words.has('bytes')) return `${(value / 2 ** 20).toFixed(1)} MB`;
  if (words.has('rps')) return `${group.format(value)} req/s`;
  if (words.has('growth')) return `${(value * 100).toFixed(1)} %`;
  return group.format(value);
}

function verdict(f: BenchFigure): string {
  if (f.met === undefined) return 'reference';
  return f.met ? 'met' : `**missed** (${f.target}; ratio ${f.ratio})`;
}

/** The markdown between the result markers: machine, Node, date, then one table per benchmark. */
export function renderResults(results: BenchResults): string {
  const { meta } = results;
  const lines = [
    `Measured ${meta.date.slice(0, 10)} on ${meta.platform}, ${meta.cpus}, ${meta.memory_gib} GiB, Node ${meta.node}; the whole run took ${Math.round(meta.duration_s / 6) / 10} min.`,
    '',
  ];
  const benches = [...new Set(results.figures.map((f) => f.bench))];
  for (const bench of benches) {
    lines.push(`### ${TITLES[bench] ?? bench}`, '', '| Figure | Value | Limit (same run) | Ratio | Target | Verdict |', '| --- | --- | --- | --- | --- | --- |');
    for (const f of results.figures.filter((x) => x.bench === bench)) {
      lines.push(`| \`${f.name}\` | ${formatValue(f.name, f.value)} | ${formatValue(f.name, f.limit)} (${f.limit_name}) | ${f.ratio} | ${f.target} | ${verdict(f)} |`);
    }
    lines.push('');
  }
  return lines.join('\n');
}
