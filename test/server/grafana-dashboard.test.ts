import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SyntaxNode } from '@lezer/common';
import { parser } from '@prometheus-io/lezer-promql';
import { call } from '../support/http.js';
import { startBroker, type BrokerHarness } from '../support/broker.js';
import { REPO_ROOT } from '../support/processes.js';

// The operators' Grafana dashboard (charts/gatehouse/dashboards/gatehouse-backend.json): every
// panel's query parses with Prometheus' own PromQL grammar (@prometheus-io/lezer-promql), and
// every selector in it matches series of a real scrape of the running backend.

interface Panel {
  type: string;
  title: string;
  datasource?: { type: string; uid: string };
  targets?: { expr: string; refId: string; datasource?: { uid: string } }[];
  panels?: Panel[];
}

const DASHBOARD = join(REPO_ROOT, 'charts', 'gatehouse', 'dashboards', 'gatehouse-backend.json');

/** Every panel, those inside rows included. */
const flatten = (panels: readonly Panel[]): Panel[] => panels.flatMap((p) => [p, ...flatten(p.panels ?? [])]);

interface Selector {
  readonly metric: string;
  readonly matchers: readonly { label: string; op: string; value: string }[];
}

/** The syntax errors of a query (lezer marks them as error nodes), and its vector selectors. */
function readQuery(expr: string): { errors: string[]; selectors: Selector[] } {
  const tree = parser.parse(expr);
  const errors: string[] = [];
  const selectors: Selector[] = [];
  const text = (node: SyntaxNode) => expr.slice(node.from, node.to);
  tree.iterate({
    enter: (ref) => {
      if (ref.type.isError) errors.push(`at ${ref.from}: ${JSON.stringify(expr.slice(Math.max(0, ref.from - 10), ref.to + 10))}`);
      if (ref.name !== 'VectorSelector') return;
      const node = ref.node;
      const identifier = node.getChild('Identifier');
      const matchers = (node.getChild('LabelMatchers')?.getChildren('UnquotedLabelMatcher') ?? []).map((m) => ({
        label: text(m.getChild('LabelName')!),
        op: text(m.getChild('MatchOp')!),
        value: JSON.parse(text(m.getChild('StringLiteral')!)) as string,
      }));
      selectors.push({ metric: identifier ? text(identifier) : '', matchers });
    },
  });
  return { errors, selectors };
}

/** Sample lines of a Prometheus text scrape: name and labels. */
function samples(scrape: string): { name: string; labels: Record<string, string> }[] {
  return scrape
    .split('\n')
    .filter((line) => line && !line.startsWith('#'))
    .map((line) => {
      const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? /.exec(line);
      assert.ok(match, line);
      const labels = Object.fromEntries([...(match[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1]!, m[2]!]));
      return { name: match[1]!, labels };
    });
}

const holds = (op: string, actual: string | undefined, wanted: string): boolean => {
  const value = actual ?? '';
  if (op === '=') return value === wanted;
  if (op === '!=') return value !== wanted;
  const full = new RegExp(`^(?:${wanted})$`).test(value);
  return op === '=~' ? full : !full;
};

describe('the operators\' Grafana dashboard', () => {
  let h: BrokerHarness;
  const dashboard = JSON.parse(readFileSync(DASHBOARD, 'utf8')) as { uid: string; title: string; panels: Panel[]; templating: { list: { name: string; type: string; query: string }[] } };
  const panels = flatten(dashboard.panels).filter((p) => p.type !== 'row');

  before(async () => {
    h = await startBroker();
    // Traffic, so that the series the panels read exist in the scrape: deployments of both
    // outcomes, a token and a refusal.
    const ledgerToken = await h.issuer.mint();
    for (const status of ['success', 'failure']) {
      const res = await call(`${h.backend.url}/v1/deployments`, { token: ledgerToken, json: { delivery_id: `d-${status}`, environment: 'production', status } });
      assert.equal(res.status, 201, res.text);
    }
    assert.equal((await h.token({ oidcToken: await h.oidc(), owner: 'octo-org', repo: 'octo-repo' })).status, 200);
    assert.equal((await h.token({ owner: 'octo-org', repo: 'octo-repo' })).status, 400);
  });
  after(() => h.close());

  it('is a dashboard with its panels on the Prometheus data source chosen at import', () => {
    assert.equal(dashboard.uid, 'gatehouse-backend');
    assert.deepEqual(dashboard.templating.list.map((v) => [v.name, v.type, v.query]), [['datasource', 'datasource', 'prometheus']]);
    assert.deepEqual(
      panels.map((p) => p.title),
      ['Deployments per day, by environment', 'Change failure rate, by environment', '/token answers, by outcome', '/token latency', 'Key-set fetch failures', 'Token audit write failures, by route'],
    );
    for (const panel of panels) {
      assert.deepEqual(panel.datasource, { type: 'prometheus', uid: '${datasource}' }, panel.title);
      assert.ok((panel.targets ?? []).length > 0, panel.title);
    }
  });

  it('every panel\'s query parses with Prometheus\' own parser, and each selector matches series of a real scrape of the backend', async () => {
    const scrape = await fetch(`${h.backend.url}/metrics`).then((r) => r.text());
    const series = samples(scrape);
    const names = new Set(series.map((s) => s.name));
    const read: string[] = [];
    for (const panel of panels) {
      for (const target of panel.targets!) {
        const { errors, selectors } = readQuery(target.expr);
        assert.deepEqual(errors, [], `${panel.title} ${target.refId}: ${target.expr}`);
        assert.ok(selectors.length > 0, `${panel.title}: names a metric`);
        for (const selector of selectors) {
          assert.ok(names.has(selector.metric), `${panel.title}: ${selector.metric} is not in the scrape`);
          const matching = series.filter((s) => s.name === selector.metric && selector.matchers.every((m) => holds(m.op, s.labels[m.label], m.value)));
          assert.ok(matching.length > 0, `${panel.title}: ${selector.metric}{${selector.matchers.map((m) => `${m.label}${m.op}"${m.value}"`).join(',')}} matches no series`);
          read.push(selector.metric);
        }
      }
    }
    assert.deepEqual(
      [...new Set(read)].sort(),
      ['gatehouse_audit_write_failures_total', 'gatehouse_http_request_duration_seconds_bucket', 'gatehouse_key_set_fetches_total', 'gatehouse_ledger_deployments_total', 'gatehouse_token_requests_total'],
    );
  });

  it('the checks catch a query that does not parse and a metric or label value the backend does not have', () => {
    assert.notDeepEqual(readQuery('sum(rate(gatehouse_token_requests_total[5m]').errors, []);
    assert.notDeepEqual(readQuery('sum by (outcome) rate(gatehouse_token_requests_total[5m])').errors, []);
    const { errors, selectors } = readQuery('rate(gatehouse_token_request_total{outcome="minted"}[5m])');
    assert.deepEqual(errors, []);
    assert.deepEqual(selectors, [{ metric: 'gatehouse_token_request_total', matchers: [{ label: 'outcome', op: '=', value: 'minted' }] }]);
    assert.ok(!holds('=', undefined, 'minted') && holds('=~', 'failure', 'failure|rolled-back') && !holds('=~', 'failures', 'failure|rolled-back') && holds('!=', 'success', 'skipped'));
  });
});
