/**
 * `npm run demo`: every part of Gatehouse working together on loopback, step by step, in plain
 * words. Nothing leaves the machine and nothing outlives the run: the servers are closed and the
 * temporary folders removed, on success, on failure and on Ctrl-C. Exit 0 when every step gave
 * the answer it should; 1 otherwise, naming the step.
 *
 * Reused from test/support (each a small, real piece rather than a mock): the OIDC issuer with a
 * runner-compatible token endpoint, the action runner emulation, process helpers, the git
 * repository helper and the fetch wrapper. The GitHub API fake is the demo's own (demo/platform.ts).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createGateFixture, type GateFixture } from './gate-fixture.js';
import { DemoPlatform, type DemoRepository } from './platform.js';
import { CookieJar } from '../test/support/console-world.js';
import { FakeGitHubUser } from '../test/support/fake-github-user.js';
import { call } from '../test/support/http.js';
import { TestIssuer } from '../test/support/oidc-issuer.js';
import { REPO_ROOT, runToEnd, startEntry, type Started } from '../test/support/processes.js';
import { runAction, type ActionRun } from '../test/support/runner.js';
import { closedPort } from '../test/support/servers.js';

const RECORD_BUNDLE = join(REPO_ROOT, 'dist', 'record-deployment', 'index.js');
const TOKEN_BUNDLE = join(REPO_ROOT, 'dist', 'request-token', 'index.js');
const GATE_CLI = join(REPO_ROOT, 'dist', 'gate', 'cli', 'index.js');
const LEDGER_AUDIENCE = 'gatehouse-ledger';
/** The GitHub App's OAuth side, for the console: made-up credentials the fake accepts. */
const CLIENT_ID = 'Iv23liDemoConsole1';
const CLIENT_SECRET = `demo-client-secret-${Math.random().toString(36).slice(2)}`;
const SESSION_KEY = Buffer.from(Array.from({ length: 32 }, () => Math.floor(Math.random() * 256))).toString('hex');
const PERSON = { id: 61_200_777, login: 'mona', access: new Map([[7001, [612_000_123]]]), admin: new Set([612_000_123]) };
const BROKER_AUDIENCE = 'gatehouse-broker';

const REPOSITORY: DemoRepository = { owner: 'demo-org', name: 'web-app', id: 612_000_123 };
const FULL_NAME = `${REPOSITORY.owner}/${REPOSITORY.name}`;
/** The claims GitHub would put in this repository's tokens (the issuer fills in the rest). */
const CLAIMS = {
  repository: FULL_NAME,
  repository_id: String(REPOSITORY.id),
  repository_owner: REPOSITORY.owner,
  repository_owner_id: '61200',
  sub: `repo:${FULL_NAME}:ref:refs/heads/main`,
  job_workflow_ref: `${FULL_NAME}/.github/workflows/deploy.yml@refs/heads/main`,
};

/** A step that did not give the answer it should; the message says what was expected. */
class DemoFailure extends Error {
  override readonly name = 'DemoFailure';
}

function expect(condition: unknown, message: string): asserts condition {
  if (!condition) throw new DemoFailure(message);
}

// ---- output -------------------------------------------------------------------------------

/** Every token, key and secret of this run: never printed, and looked for in the backend's log. */
const secrets = new Set<string>();
const hide = (text: string): string => [...secrets].reduce((out, secret) => out.split(secret).join('[hidden]'), text);
const say = (line = ''): void => void process.stdout.write(`${hide(line)}\n`);
let stepNumber = 0;
const step = (text: string): void => say(`\n${++stepNumber}. ${text}`);
const ok = (text: string): void => say(`   ✓ ${text}`);
const note = (text: string): void => say(`     ${text}`);

// ---- clean-up -----------------------------------------------------------------------------

const cleanups: { what: string; run: () => Promise<void> | void }[] = [];
let cleaned = false;

/** Undoes everything started so far, newest first; true when all of it went. */
async function cleanUp(): Promise<boolean> {
  if (cleaned) return true;
  cleaned = true;
  let clean = true;
  for (const { what, run } of cleanups.reverse()) {
    try {
      await run();
    } catch (err) {
      clean = false;
      say(`   ! could not clean up ${what}: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  return clean;
}

/** Stops the backend the way an orchestrator does (SIGTERM), forcing it after a bound. */
async function stopProcess(started: Started, graceMs: number): Promise<number | null> {
  if (started.child.exitCode !== null || started.child.signalCode !== null) return started.child.exitCode;
  started.child.kill('SIGTERM');
  const timer = setTimeout(() => started.child.kill('SIGKILL'), graceMs);
  try {
    return await started.exited;
  } finally {
    clearTimeout(timer);
  }
}

// ---- the steps ----------------------------------------------------------------------------

interface Context {
  issuer: TestIssuer;
  platform: DemoPlatform;
  people: FakeGitHubUser;
  backend: Started;
}

function checkPrerequisites(): void {
  for (const bundle of [RECORD_BUNDLE, TOKEN_BUNDLE, GATE_CLI]) {
    expect(existsSync(bundle), `${bundle} is missing: dist/ is committed, so a fresh clone has it; after changing actions/, run npm run build`);
  }
  try {
    execFileSync('git', ['--version'], { stdio: 'ignore' });
  } catch {
    throw new DemoFailure('git is not installed; the gate step needs it');
  }
}

async function startIssuer(): Promise<TestIssuer> {
  step('Start a demo OIDC issuer (plays GitHub\'s token service and a runner\'s token endpoint)');
  const issuer = await TestIssuer.start();
  cleanups.push({ what: 'the demo issuer', run: () => issuer.close() });
  issuer.runnerClaims = CLAIMS;
  secrets.add(issuer.runnerRequestToken);
  ok(`listening on ${issuer.url}: it signs GitHub-shaped RS256 tokens with a key made just now`);
  return issuer;
}

async function startPlatform(consoleUrl: string): Promise<{ platform: DemoPlatform; people: FakeGitHubUser }> {
  step('Start a GitHub API fake (the two REST calls the broker makes to mint a token, and a person\'s sign-in for the console)');
  const platform = await DemoPlatform.start(REPOSITORY);
  cleanups.push({ what: 'the GitHub API fake', run: () => platform.close() });
  secrets.add(platform.privateKeyPem);
  const people = await FakeGitHubUser.start({ clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, callbackUrl: () => `${consoleUrl}/console/callback`, repositories: [REPOSITORY] });
  cleanups.push({ what: 'the sign-in fake', run: () => people.close() });
  people.addPerson(PERSON);
  people.signedIn = PERSON;
  platform.people = people;
  secrets.add(CLIENT_SECRET).add(SESSION_KEY);
  ok(`listening on ${platform.url}: GitHub App ${platform.appId} (key pair made just now) is installed on ${FULL_NAME}, repository id ${REPOSITORY.id}`);
  ok(`the same address answers GitHub's sign-in pages and user-token calls: ${PERSON.login} has authorised the App and can see ${FULL_NAME}`);
  return { platform, people };
}

async function startBackend(issuer: TestIssuer, platform: DemoPlatform, port: number): Promise<Started> {
  const env = {
    PORT: String(port),
    // The console: the App's OAuth credentials, a session key made just now, and its public address.
    FORGE_APP_CLIENT_ID: CLIENT_ID,
    FORGE_APP_CLIENT_SECRET: CLIENT_SECRET,
    CONSOLE_SESSION_KEY: SESSION_KEY,
    CONSOLE_URL: `http://127.0.0.1:${port}`,
    FORGE_WEB_BASE: platform.url,
    OIDC_ISSUER: issuer.url,
    LEDGER_AUDIENCE,
    LEDGER_ALLOWED_OWNERS: REPOSITORY.owner,
    // The ledger verifies against this document and never calls the issuer's key endpoint.
    LEDGER_JWKS_DOCUMENT: JSON.stringify(issuer.jwks()),
    FORGE_API_BASE: platform.url,
    FORGE_APP_ID: platform.appId,
    FORGE_APP_PRIVATE_KEY: platform.privateKeyPem,
  };
  step('Start the backend: the real process entry, node --import tsx server/main.ts, without MONGODB_URI');
  // No MONGODB_URI (startEntry passes only the variables given here): the embedded in-memory store.
  const backend = await startEntry('server/main.ts', env);
  cleanups.push({ what: 'the backend', run: async () => void (await stopProcess(backend, 5000)) });
  const listening = backend
    .output()
    .split('\n')
    .find((line) => line.includes('gatehouse listening'));
  const store = listening ? (JSON.parse(listening) as { store?: string }).store : undefined;
  expect(store === 'memory', `the backend should use the in-memory store, it says "${store}"`);
  ok(`listening on ${backend.url}, in-memory store`);
  const health = await call(`${backend.url}/healthz`);
  expect(health.status === 200 && health.body.status === 'ok', `GET /healthz answered ${health.status} ${health.text}`);
  ok(`GET /healthz → 200, ${health.body.service} ${health.body.version}`);
  note(`ledger: audience ${LEDGER_AUDIENCE}, owners allowed: ${REPOSITORY.owner}, issuer keys pinned with LEDGER_JWKS_DOCUMENT`);
  note(`broker: audience ${BROKER_AUDIENCE}, GitHub App ${platform.appId} at FORGE_API_BASE=${platform.url}`);
  note(`console: on at ${backend.url}/console, signing in through FORGE_WEB_BASE=${platform.url}`);
  return backend;
}

/** A runner's environment for one job of the deploy workflow. */
function runnerEnv(issuer: TestIssuer, runId: string, job: string): Record<string, string> {
  return {
    GITHUB_ACTIONS: 'true',
    ACTIONS_ID_TOKEN_REQUEST_URL: issuer.runnerTokenUrl,
    ACTIONS_ID_TOKEN_REQUEST_TOKEN: issuer.runnerRequestToken,
    GITHUB_REPOSITORY: FULL_NAME,
    GITHUB_RUN_ID: runId,
    GITHUB_RUN_ATTEMPT: '1',
    GITHUB_JOB: job,
    GITHUB_SHA: '3f1c2a9e8b7d6c5f4e3d2c1b0a9f8e7d6c5b4a39',
    GITHUB_ACTOR: 'mona',
    GITHUB_SERVER_URL: 'https://github.com',
  };
}

/** Only the step's annotations: its plain output holds the masked OIDC token. */
const annotations = (run: ActionRun): string =>
  run.stdout
    .split('\n')
    .filter((line) => /^::(warning|error|notice)/.test(line))
    .join(' ') || `exit ${run.code}`;

interface Deployment {
  readonly environment: string;
  readonly version: string;
  readonly runId: string;
  readonly url: string;
}

async function recordWithAction(ctx: Context, deployment: Deployment): Promise<ActionRun> {
  const job = `deploy-${deployment.environment}`;
  const run = await runAction(
    RECORD_BUNDLE,
    { 'api-url': ctx.backend.url, environment: deployment.environment, status: 'success', version: deployment.version, url: deployment.url },
    runnerEnv(ctx.issuer, deployment.runId, job),
  );
  if (ctx.issuer.lastRunnerToken) secrets.add(ctx.issuer.lastRunnerToken);
  expect(run.code === 0 && run.outputs['deployment-id'], `the action did not record the deployment: ${annotations(run)}`);
  return run;
}

async function recordDeployments(ctx: Context): Promise<void> {
  const deployments: Deployment[] = [
    { environment: 'staging', version: '1.4.0', runId: '9100001', url: 'https://staging.web-app.example' },
    { environment: 'production', version: '1.4.0', runId: '9100002', url: 'https://web-app.example' },
  ];
  let first: ActionRun | undefined;
  for (const [i, deployment] of deployments.entries()) {
    step(`Record deployment ${i + 1} with the bundled action, run as a runner runs it (node dist/record-deployment/index.js): ${FULL_NAME} ${deployment.version} → ${deployment.environment}`);
    const run = await recordWithAction(ctx, deployment);
    expect(run.outputs.duplicate === 'false', `a first delivery should not be a duplicate (duplicate=${run.outputs.duplicate})`);
    ok(`the action fetched an OIDC token from the runner endpoint and the ledger stored the record: deployment-id ${run.outputs['deployment-id']}, recorded-at ${run.outputs['recorded-at']}`);
    first ??= run;
  }
  // A retried step sends the same delivery id (run, attempt, job, environment).
  const again = await recordWithAction(ctx, deployments[0]!);
  expect(
    again.outputs.duplicate === 'true' && again.outputs['deployment-id'] === first!.outputs['deployment-id'],
    `a retried step should be a duplicate of the first record (duplicate=${again.outputs.duplicate})`,
  );
  ok('ran the staging step again, as a retried step would: the ledger answered duplicate=true with the same deployment id and stored nothing new');
}

async function listHistory(ctx: Context): Promise<void> {
  step('List the history: GET /v1/deployments with the repository\'s OIDC token');
  const token = await ctx.issuer.mint({ ...CLAIMS, aud: LEDGER_AUDIENCE });
  secrets.add(token);
  const history = await call<{ repository: string; deployments: Record<string, unknown>[] }>(`${ctx.backend.url}/v1/deployments`, { token });
  expect(history.status === 200, `GET /v1/deployments answered ${history.status} ${history.text}`);
  const records = history.body.deployments;
  expect(records.length === 2, `the history should hold 2 records, it holds ${records.length}`);
  expect(records[0]!.environment === 'production', 'the history should list the newest record first');
  ok(`200: ${records.length} records of ${history.body.repository}, newest first`);
  for (const r of records) note(`${String(r.recorded_at)}  ${String(r.environment).padEnd(10)}  ${String(r.status)}  ${String(r.version)}  ${String(r.deployment_id)}`);

  const strangerToken = await ctx.issuer.mint({ aud: LEDGER_AUDIENCE, repository: 'stranger-org/app', repository_owner: 'stranger-org', repository_id: '999001' });
  secrets.add(strangerToken);
  const refused = await call(`${ctx.backend.url}/v1/deployments`, { token: strangerToken });
  expect(refused.status === 403 && refused.body.reason === 'owner_not_allowed', `a stranger's token should get 403 owner_not_allowed, got ${refused.status} ${refused.text}`);
  ok('a valid token of stranger-org/app, an owner not in LEDGER_ALLOWED_OWNERS → 403 forbidden (owner_not_allowed)');
  expect(ctx.issuer.jwksFetches === 0, `the ledger should not fetch keys with a pinned key set; it fetched ${ctx.issuer.jwksFetches} times`);
  ok('the ledger verified 5 tokens against the pinned key set and called the issuer\'s key endpoint 0 times');
}

async function mintThroughBroker(ctx: Context): Promise<void> {
  step(`Mint a GitHub App installation token through the broker: POST /token with an OIDC token for audience ${BROKER_AUDIENCE}`);
  const oidcToken = await ctx.issuer.mint({ ...CLAIMS, aud: BROKER_AUDIENCE });
  secrets.add(oidcToken);
  const answer = await call<{ token?: unknown; expires_at?: unknown; repository?: unknown }>(`${ctx.backend.url}/token`, {
    json: { oidcToken, owner: REPOSITORY.owner, repo: REPOSITORY.name },
  });
  if (typeof answer.body?.token === 'string') secrets.add(answer.body.token);
  expect(answer.status === 200 && typeof answer.body.token === 'string', `POST /token answered ${answer.status} ${answer.text}`);
  const minted = ctx.platform.mints.at(-1);
  expect(minted, 'the broker answered 200 but GitHub was never asked for a token');
  const minutes = Math.round((Date.parse(String(answer.body.expires_at)) - Date.now()) / 60_000);
  ok(`200: a token for ${String(answer.body.repository)}, ${answer.body.token.length} characters (not shown), expires ${String(answer.body.expires_at)} (in ${minutes} min)`);
  const permissions = Object.entries(minted.permissions).map(([name, access]) => `${name}: ${access}`).join(', ');
  note(`GitHub was asked for installation ${minted.installationId}, repository_ids [${minted.repositoryIds.join(', ')}] (the token's repository_id claim), permissions ${permissions}`);
  note(
    `the broker fetched the issuer's key set ${ctx.issuer.jwksFetches} time(s) from ${ctx.issuer.jwksUrl}: ` +
      'LEDGER_JWKS_DOCUMENT pins keys for the ledger only; the broker caches the fetched set and snapshots it in the store',
  );

  const refused = await call(`${ctx.backend.url}/token`, { json: { oidcToken, owner: REPOSITORY.owner, repo: 'another-repo' } });
  expect(refused.status === 403 && refused.body.error === 'repo_mismatch', `asking for another repository should get 403 repo_mismatch, got ${refused.status} ${refused.text}`);
  ok(`the same OIDC token asking for ${REPOSITORY.owner}/another-repo → 403 repo_mismatch (a token only ever speaks for its own repository)`);

  // The same through the bundled action. broker-url is required: there is no default broker.
  // revoke: false, as no post step runs here.
  const viaAction = await runAction(TOKEN_BUNDLE, { 'broker-url': ctx.backend.url, revoke: 'false' }, runnerEnv(ctx.issuer, '9100003', 'release'));
  if (ctx.issuer.lastRunnerToken) secrets.add(ctx.issuer.lastRunnerToken);
  if (viaAction.outputs.token) secrets.add(viaAction.outputs.token);
  expect(viaAction.code === 0 && viaAction.outputs.token && viaAction.stdout.includes(`::add-mask::${viaAction.outputs.token}`), `the request-token action got no token: ${annotations(viaAction)}`);
  ok(`the bundled request-token action (node dist/request-token/index.js, broker-url: ${ctx.backend.url}) got a token for ${viaAction.outputs.repository}, masked in its log (::add-mask::)`);

  const refusedAction = await runAction(TOKEN_BUNDLE, { 'broker-url': ctx.backend.url, audience: 'someone-elses-broker' }, runnerEnv(ctx.issuer, '9100004', 'release'));
  if (ctx.issuer.lastRunnerToken) secrets.add(ctx.issuer.lastRunnerToken);
  const warnings = refusedAction.stdout.split('\n').filter((line) => line.startsWith('::warning::'));
  expect(
    refusedAction.code === 0 && refusedAction.outputs.token === '' && warnings.length === 2 && warnings[1] === '::warning::broker said: invalid_oidc_token (audience_mismatch)',
    `an audience the broker does not accept should warn twice (reason, then what the broker said): ${annotations(refusedAction)}`,
  );
  ok('the action asking with an audience the broker does not accept: exit 0 (fail-soft), empty outputs, two warnings:');
  for (const line of warnings) note(line.replace(/^::warning::/, ''));
}

/** A table cell's text without its markup. */
const textOf = (cell: string): string => cell.replace(/<[^>]+>/g, ' ').replace(/&#39;/g, "'").replace(/&amp;/g, '&').replace(/\s+/g, ' ').trim();

async function showConsole(ctx: Context): Promise<void> {
  step(`Sign ${PERSON.login} in to the console through the GitHub fake and read the overview (GET /console)`);
  const jar = new CookieJar();
  const landed = await jar.follow(`${ctx.backend.url}/console`, ctx.backend.url);
  const session = jar.get('gatehouse_session');
  if (session) secrets.add(session);
  const page = await landed.text();
  expect(landed.status === 200 && session, `the console should show the overview after signing in; it answered ${landed.status}`);
  const requests = ctx.people.tokenRequests;
  expect(requests.length === 1 && requests[0]!.hadVerifier, 'the sign-in should exchange one code, with its PKCE verifier');
  ok(`GET /console → 302 /console/login → GitHub's authorize page (state and a PKCE challenge) → /console/callback → 200, signed in as ${PERSON.login}`);
  const rows = [...page.matchAll(/<tr data-repository="([^"]+)" data-environment="([^"]*)">([\s\S]*?)<\/tr>/g)];
  expect(rows.length === 2, `the overview should hold one row per environment of ${FULL_NAME} (2), it holds ${rows.length}`);
  ok(`the overview shows the repositories GitHub lists for ${PERSON.login} through the App, one row per environment, last 30 days:`);
  for (const [, repository, environment, cells] of rows) {
    const figures = [...cells!.matchAll(/<td class="num[^"]*" data-figure="[^"]+" data-value="[^"]+">([\s\S]*?)<\/td>/g)].map((m) => textOf(m[1]!));
    note(`${repository} ${environment}: ${['Deployment frequency', 'Lead time', 'Change failure rate', 'Time to restore'].map((label, i) => `${label} ${figures[i] ?? '?'}`).join('; ')}`);
  }
  const repository = await jar.fetch(`${ctx.backend.url}/console/repos/${FULL_NAME}`);
  const body = await repository.text();
  const sections = (body.match(/<section aria-labelledby=/g) ?? []).length;
  expect(repository.status === 200 && sections === 2, `the repository page should show both environments, it answered ${repository.status} with ${sections}`);
  ok(`GET /console/repos/${FULL_NAME} → 200: per environment the four figures, a bar per day, 12 ISO weeks and the records behind them`);
  const csrf = /name="csrf" value="([^"]+)"/.exec(page)?.[1];
  const out = await jar.fetch(`${ctx.backend.url}/console/logout`, { method: 'POST', body: `csrf=${csrf}`, headers: { 'content-type': 'application/x-www-form-urlencoded', origin: ctx.backend.url } });
  expect(out.status === 200 && (await out.text()).includes('You are signed out'), `signing out should answer the signed-out page, it answered ${out.status}`);
  ok('signed out with the page\'s form (POST /console/logout with its CSRF token): the session is gone, the page offers a Sign in button');
  note('to look at the console in a browser, run the backend with these settings yourself: docs/console.md');
}

async function runGate(): Promise<void> {
  step('Run the gate (node dist/gate/cli/index.js ci --fail-on high) on a generated repository');
  const fixture: GateFixture = createGateFixture();
  cleanups.push({ what: 'the generated repository', run: () => fixture.cleanup() });
  note(`main: ${fixture.base.slice(0, 7)} adds ${fixture.netNew.path}; the pull request's commit ${fixture.head.slice(0, 7)} adds a ping route to it`);
  note(`the SARIF holds 2 findings: ${fixture.preExisting.ruleId} at line ${fixture.preExisting.line} (already on main), ${fixture.netNew.ruleId} at line ${fixture.netNew.line} (added by the pull request)`);
  const gate = await runToEnd(
    process.execPath,
    [GATE_CLI, 'ci', '--repo', fixture.repo.dir, '--base', 'main', '--head', 'HEAD', '--sarif', fixture.sarif, '--fail-on', 'high', '--counts-json', fixture.countsJson, '--filtered-out', fixture.filteredSarif],
    { cwd: fixture.repo.dir, env: { PATH: process.env.PATH ?? '' }, timeoutMs: 60_000 },
  );
  for (const line of `${gate.stdout}${gate.stderr}`.split('\n').filter((l) => l.trim())) note(`gate> ${line}`);
  expect(gate.code === 1, `the gate should block (exit 1) on the net-new high finding; it exited ${gate.code}`);
  const counts = JSON.parse(readFileSync(fixture.countsJson, 'utf8')) as Record<string, unknown>;
  expect(
    counts.net_new_count === 1 && counts.pre_existing_count === 1 && counts.blocking_count === 1,
    `the counts should be 1 net-new, 1 pre-existing, 1 blocking: ${JSON.stringify(counts)}`,
  );
  const filtered = JSON.parse(readFileSync(fixture.filteredSarif, 'utf8')) as { runs: { results: { ruleId?: string; baselineState?: string }[] }[] };
  const kept = filtered.runs.flatMap((r) => r.results);
  expect(kept.length === 1 && kept[0]!.ruleId === fixture.netNew.ruleId, `the net-new SARIF should hold only ${fixture.netNew.ruleId}`);
  ok(`exit 1, blocked, as it should be: ${fixture.netNew.ruleId} (${fixture.netNew.severity}) at ${fixture.netNew.path}:${fixture.netNew.line} is on a line the pull request added`);
  ok(`the ${fixture.preExisting.severity} ${fixture.preExisting.ruleId} at line ${fixture.preExisting.line} does not block: that line was already on main`);
  note(`counts.json: net_new_count 1, pre_existing_count 1, blocking_count 1; net-new.sarif holds the one new result (baselineState "${kept[0]!.baselineState}")`);
}

async function stopBackend(ctx: Context): Promise<void> {
  step('Stop the backend with SIGTERM, as an orchestrator would');
  const code = await stopProcess(ctx.backend, 15_000);
  expect(code === 0, `the backend should exit 0 after SIGTERM; it exited ${code}`);
  const log = ctx.backend.output();
  const lines = log.split('\n').filter((l) => l.trim()).length;
  const leaked = [...secrets].filter((s) => log.includes(s)).length + (/PRIVATE KEY|ghs_/.test(log) ? 1 : 0);
  expect(leaked === 0, `${leaked} of this run's tokens or keys appear in the backend's log`);
  expect(log.includes('token_sha256'), 'the backend\'s log should name tokens by fingerprint (token_sha256)');
  ok('it stopped accepting connections, closed the store and exited 0');
  ok(`its ${lines} log lines name tokens only by SHA-256 fingerprint: none of the ${secrets.size} tokens, keys and secrets of this run appears in them`);
}

// ---- main ---------------------------------------------------------------------------------

async function main(): Promise<number> {
  const started = Date.now();
  say('Gatehouse demo: the backend, the bundled actions and the gate, on 127.0.0.1 only.');
  let failed = false;
  const ctx: Partial<Context> = {};
  try {
    checkPrerequisites();
    ctx.issuer = await startIssuer();
    // The console's address must be known before it starts (its callback URL): a port free just now.
    const port = await closedPort();
    ({ platform: ctx.platform, people: ctx.people } = await startPlatform(`http://127.0.0.1:${port}`));
    ctx.backend = await startBackend(ctx.issuer, ctx.platform, port);
    const full = ctx as Context;
    await recordDeployments(full);
    await listHistory(full);
    await mintThroughBroker(full);
    await showConsole(full);
    await runGate();
    await stopBackend(full);
  } catch (err) {
    failed = true;
    say(`   ✗ ${err instanceof DemoFailure ? err.message : err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    const tail = ctx.backend?.output().trim().split('\n').slice(-5) ?? [];
    if (tail.length > 0 && tail[0]) {
      say('     last lines of the backend\'s log:');
      for (const line of tail) note(`  ${line}`);
    }
  }
  const clean = await cleanUp();
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  if (failed) {
    const where = stepNumber > 0 ? `at step ${stepNumber}` : 'before the first step';
    say(`\nThe demo FAILED ${where}${clean ? '' : ' (and some clean-up failed, see above)'}; ${seconds} s.`);
    return 1;
  }
  if (!clean) {
    say(`\nEvery step worked, but clean-up did not (see above); ${seconds} s.`);
    return 1;
  }
  say(`\nDone in ${seconds} s: every step gave the expected answer; all servers are closed and the temporary folders removed.`);
  return 0;
}

process.once('SIGINT', () => {
  say('\ninterrupted: cleaning up');
  void cleanUp().finally(() => process.exit(130));
});

process.exitCode = await main();
// Everything was closed above, so the process ends now; should anything still hold the event
// loop (a child that never started listening, say), end it rather than hang.
setTimeout(() => process.exit(), 3000).unref();
