import assert from 'node:assert/strict';
import type { ActionOctokit } from '../../actions/shared/github.js';
import { fingerprints } from '../../actions/gate/outputs/fingerprint.js';
import { ReviewApi } from '../../actions/gate/outputs/review-api.js';
import { commentBody, reviewNotes } from '../../actions/gate/outputs/review-comments.js';
import type { Finding } from '../../actions/gate/rules/classify.js';

const finding = (path: string, startLine: number, extra: Partial<Finding> = {}): Finding =>
  ({ runIndex: 0, index: 0, result: { message: { text: 'eval is evil\nsecond line' } }, locationIndex: 0, tool: 'eslint', ruleId: 'no-eval', path, startLine, severity: 'high', blocking: true, ...extra }) as Finding;

describe('inline review comments: fingerprints, bodies, notes, pacing', () => {
  it('a fingerprint is the rule, the path and the line text whitespace-normalised, not the line number', () => {
    const text = new Map([
      [10, '  eval(x);'],
      [15, 'eval(x);\r'],
      [20, 'eval( x );'],
    ]);
    const at = (line: number) => fingerprints([finding('a.js', line)], (_p, l) => text.get(l)).values().next().value;
    assert.equal(at(10), at(15), 'moved and re-indented: the same finding');
    assert.notEqual(at(10), at(20), 'other text: another finding');
    const [a, b] = [finding('a.js', 10), finding('b.js', 10)];
    const prints = fingerprints([a, b], () => 'eval(x);');
    assert.notEqual(prints.get(a), prints.get(b), 'another path: another finding');
    const other = finding('a.js', 10, { ruleId: 'no-implied-eval' });
    assert.notEqual(fingerprints([other], () => 'eval(x);').get(other), prints.get(a), 'another rule: another finding');
  });

  it('two findings of one rule on identical lines of one file are told apart by their order', () => {
    const [one, two] = [finding('a.js', 20), finding('a.js', 10)];
    const prints = fingerprints([one, two], () => 'eval(x);');
    assert.match(prints.get(two)!, /^[0-9a-f]{24}$/);
    assert.equal(prints.get(one), `${prints.get(two)}-2`);
  });

  it('the body: marker, severity, tool and rule, the first line of the message, mentions made inert', () => {
    const f = finding('a.js', 1, { result: { message: { text: 'ping @team about #12\nmore' } } });
    assert.equal(commentBody(f, 'f'.repeat(24)), `<!-- gatehouse-finding:${'f'.repeat(24)} -->\n**Gatehouse gate** · net-new **high** finding (blocking) · eslint · \`no-eval\`\n\nping @\u200bteam about #\u200b12`);
  });

  it("the summary's notes: findings past the limit and findings off the diff", () => {
    assert.deepEqual(reviewNotes({ posted: 0, edited: 0, reopened: 0, resolved: 0, leftOut: 0, notOnDiff: 0 }, 10), []);
    assert.deepEqual(reviewNotes({ posted: 10, edited: 0, reopened: 0, resolved: 0, leftOut: 3, notOnDiff: 1 }, 10), [
      "3 net-new findings on lines of the diff have no inline comment: at most 10 of the gate's inline comments are open at once (`max-review-comments`).",
      "1 net-new finding is not on a line of the pull request's diff, where GitHub takes review comments: listed here only.",
    ]);
  });

  it('writes are a second apart (GitHub asks integrations to space requests that create content)', async () => {
    const waits: number[] = [];
    const calls: string[] = [];
    const octokit = {
      rest: { pulls: { updateReviewComment: async () => void calls.push('edit') } },
      graphql: async () => void calls.push('resolve'),
    } as unknown as ActionOctokit;
    const api = new ReviewApi(octokit, { owner: 'o', repo: 'r', number: 1 }, { name: 'github-actions', bot: true }, { now: () => Date.now(), sleep: async (ms) => void waits.push(ms) });
    await api.edit(1, 'a');
    await api.setResolved('T', true);
    await api.edit(2, 'b');
    assert.deepEqual(calls, ['edit', 'resolve', 'edit']);
    assert.equal(waits.length, 2, 'no wait before the first write');
    for (const ms of waits) assert.ok(ms > 900 && ms <= 1000, String(ms));
  });

  it('the spacing is kept on the clock it is given: only what is left of the second is waited', async () => {
    let now = 0;
    const waits: number[] = [];
    const clock = { now: () => now, sleep: async (ms: number) => void (waits.push(ms), (now += ms)) };
    const octokit = { rest: { pulls: { updateReviewComment: async () => {} } } } as unknown as ActionOctokit;
    const api = new ReviewApi(octokit, { owner: 'o', repo: 'r', number: 1 }, { name: 'github-actions', bot: true }, clock);
    await api.edit(1, 'a');
    now += 600;
    await api.edit(2, 'b');
    now += 1500;
    await api.edit(3, 'c');
    await api.edit(4, 'd');
    assert.deepEqual(waits, [400, 1000]);
  });
});
