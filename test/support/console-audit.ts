import { INSTALLATION_ID, startBroker, type BrokerHarness } from './broker.js';
import { REPOSITORIES, type ConsoleWorld, type settableClock } from './console-world.js';

/*
 * Token audit records for the console's tests, written as production writes them: a second
 * backend replica (the broker, with the GitHub App fake) shares the console's store and clock,
 * and workflows of the console world's repositories ask it for tokens with OIDC tokens of its
 * issuer. The tokens and OIDC tokens are kept so tests can check they never reach a page.
 */

export const AUDIT_TOKEN = 'console-audit-bearer-0123456789abcdef';
const HOUR = 3_600_000;

export const WEB_APP_ID = '710001';
export const DEPLOY = 'octo-org/web-app/.github/workflows/deploy.yml';
export const RELEASE = 'octo-org/web-app/.github/workflows/release.yml';

export interface AuditSeed {
  readonly broker: BrokerHarness;
  /** Every installation token the broker handed out. */
  readonly tokens: string[];
  /** Every OIDC token sent, refused ones included. */
  readonly oidcTokens: string[];
  /** How many records of web-app (by its id) were written: minted ones and a refusal of a verified token. */
  readonly webAppRecords: number;
  close(): Promise<void>;
}

/** Web-app's records spread over the 10 days before `now`; `count` of them minted. */
export async function seedTokenAudit(world: ConsoleWorld, clock: ReturnType<typeof settableClock>, now: number, count = 56): Promise<AuditSeed> {
  const broker = await startBroker({ clock, store: world.store, env: { AUDIT_TOKEN } });
  for (const r of REPOSITORIES.filter((x) => x.owner === 'octo-org')) broker.github.addRepo(`${r.owner}/${r.name}`, r.id, INSTALLATION_ID);
  const tokens: string[] = [];
  const oidcTokens: string[] = [];
  const ask = async (at: number, claims: Record<string, unknown>, body: { owner: string; repo: string }, expired = false): Promise<number> => {
    clock.set(at);
    const oidc = await broker.oidc(claims, { nowMs: expired ? at - 2 * HOUR : at });
    oidcTokens.push(oidc);
    const res = await broker.token({ oidcToken: oidc, ...body });
    if (res.status === 200) tokens.push(res.body.token as string);
    return res.status;
  };
  const of = (name: string) => {
    const r = REPOSITORIES.find((x) => x.name === name)!;
    return { repository: `${r.owner}/${r.name}`, repository_id: String(r.id), repository_owner: r.owner };
  };
  const actors = ['mona', 'hubot', 'dependabot[bot]'];
  let webAppRecords = 0;
  for (let i = 0; i < count; i++) {
    const release = i % 7 === 3;
    const workflow = release ? `${RELEASE}@refs/tags/v1.${i}.0` : `${DEPLOY}@refs/heads/main`;
    const status = await ask(
      now - (count - i) * 4 * HOUR,
      {
        ...of('web-app'),
        workflow_ref: workflow,
        job_workflow_ref: workflow,
        event_name: release ? 'release' : 'push',
        run_id: String(7_000_000_000 + i),
        run_attempt: i % 5 === 0 ? '2' : '1',
        actor: actors[i % actors.length],
        ...(release ? {} : { environment: 'production' }),
      },
      { owner: 'octo-org', repo: 'web-app' },
    );
    if (status !== 200) throw new Error(`seeding the token audit: /token answered ${status}`);
    webAppRecords++;
  }
  // A verified token of web-app asking for another repository: refused, and web-app's record.
  const deploy = `${DEPLOY}@refs/heads/main`;
  const mismatch = { ...of('web-app'), workflow_ref: deploy, job_workflow_ref: deploy, event_name: 'workflow_dispatch', run_id: '7000000999', actor: 'hubot' };
  if ((await ask(now - 3 * HOUR, mismatch, { owner: 'octo-org', repo: 'payments' })) !== 403) throw new Error('seeding: repo_mismatch');
  webAppRecords++;
  // An expired token naming web-app: refused before it was verified, so it names web-app without proof.
  await ask(now - 2 * HOUR, { ...of('web-app'), actor: 'mallory' }, { owner: 'octo-org', repo: 'web-app' }, true);
  // Web-app's name under another id (deleted and re-registered): another repository's record.
  await ask(now - 2 * HOUR + 1, { ...of('web-app'), repository_id: '990001', actor: 'namesake' }, { owner: 'octo-org', repo: 'payments' });
  // Payments (seen, not administered) and secret-project (not seen): minted.
  for (const name of ['payments', 'payments', 'secret-project']) {
    if ((await ask(now - HOUR, { ...of(name), workflow_ref: `octo-org/${name}/.github/workflows/deploy.yml@refs/heads/main`, actor: 'mona' }, { owner: 'octo-org', repo: name })) !== 200) throw new Error(`seeding: ${name}`);
  }
  clock.set(now);
  return { broker, tokens, oidcTokens, webAppRecords, close: () => broker.close() };
}
