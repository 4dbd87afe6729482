import assert from 'node:assert/strict';
import { deploymentChart, figuresSummary } from '../../actions/record-deployment/figures.js';
import type { DayCounts, DeliveryFigures } from '../../actions/record-deployment/ledger-client.js';
import { parseMermaidBlock } from '../support/mermaid.js';

async function mermaidParse(chart: string): Promise<{ diagramType: string; config: object }> {
  const { diagramType } = await parseMermaidBlock(chart);
  return { diagramType, config: {} };
}

const day = (date: string, success = 0, failure = 0, rolledBack = 0, skipped = 0): DayCounts => ({ date, success, failure, rolled_back: rolledBack, skipped });

function figures(daily: DayCounts[] | undefined): DeliveryFigures {
  const sum = (k: keyof Omit<DayCounts, 'date'>) => (daily ?? []).reduce((n, d) => n + d[k], 0);
  return {
    environment: 'production',
    window: { from: '2026-10-29T06:00:00.000Z', to: '2026-11-28T06:00:00.000Z', days: 30 },
    deployments: { total: sum('success') + sum('failure') + sum('rolled_back') + sum('skipped'), success: sum('success'), failure: sum('failure'), rolled_back: sum('rolled_back'), skipped: sum('skipped') },
    deployment_frequency: { per_day: sum('success') / 30, days_with_deployment: 1 },
    change_failure_rate: null,
    recovery_time_ms: null,
    lead_time_ms: null,
    ...(daily ? { daily } : {}),
  };
}

/** The window's 31 UTC dates, 2026-10-29 to 2026-11-28. */
const dates = Array.from({ length: 31 }, (_, i) => new Date(Date.UTC(2026, 9, 29 + i)).toISOString().slice(0, 10));

describe('record-deployment: the chart of the last 30 days in the job summary', () => {
  it("Mermaid's parser reads it as an xychart, with the day's changes and, over them, the failed and rolled back ones", async () => {
    const daily = dates.map((d) => day(d));
    daily[3] = day(dates[3]!, 2, 1, 0, 5);
    daily[30] = day(dates[30]!, 1, 0, 2);
    const chart = deploymentChart('production', figures(daily))!;
    assert.deepEqual(await mermaidParse(chart), { diagramType: 'xychart', config: {} });
    assert.equal('window' in globalThis, false, 'no browser globals left for the other tests');
    const lines = chart.split('\n');
    assert.equal(lines.find((l) => l.trim().startsWith('x-axis'))!.match(/"\d\d-\d\d"/g)!.length, 31);
    assert.equal(lines.find((l) => l.includes('x-axis'))!.includes('"11-01"'), true);
    const bars = lines.filter((l) => l.trim().startsWith('bar ')).map((l) => JSON.parse(l.trim().slice(4)) as number[]);
    assert.equal(bars.length, 2);
    assert.equal(bars[0]![3], 3, 'skipped ones are not changes');
    assert.equal(bars[1]![3], 1);
    assert.equal(bars[0]![30], 3);
    assert.equal(bars[1]![30], 2);
    assert.equal(bars[0]!.reduce((a, b) => a + b, 0), 6);
    assert.match(chart, /y-axis "Deployments" 0 --> 3/);
  });

  it('an environment name with quotes, hashes and line breaks still parses', async () => {
    const daily = dates.map((d, i) => day(d, i === 0 ? 1 : 0));
    assert.deepEqual(await mermaidParse(deploymentChart('prod "eu"\n#1; x`y', figures(daily))!), { diagramType: 'xychart', config: {} });
  });

  it('the check can fail: Mermaid refuses a broken chart', async () => {
    await assert.rejects(mermaidParse('```mermaid\nxychart-beta\n  bar [1, oops]\n```'));
  });

  it('left out (not broken) when the window has no change, or when the ledger sends no daily series', () => {
    assert.equal(deploymentChart('production', figures(dates.map((d) => day(d, 0, 0, 0, 3)))), undefined);
    assert.equal(deploymentChart('production', figures(undefined)), undefined);
    assert.doesNotMatch(figuresSummary('production', figures(undefined)), /mermaid/);
    assert.match(figuresSummary('production', figures(dates.map((d) => day(d, 1)))), /```mermaid\nxychart-beta/);
  });
});
