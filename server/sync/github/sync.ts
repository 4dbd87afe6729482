import { ScanTypeUnknown, type DefectDojoClient, type KnownProduct } from '../defectdojo/client.js';
import { ImportedDigests, reportDigest } from '../defectdojo/digests.js';
import { productDirectory } from '../defectdojo/products.js';
import { ENGAGEMENTS, type ScanType } from '../defectdojo/scan-types.js';
import { refusedAs } from '../credentials.js';
import { KEYS } from '../config.js';
import { HttpError, retryTransient } from '../../http/call-errors.js';
import type { RetryPolicy } from '../../http/retry.js';
import { finishReport, notesOf, syncEachKind, type ItemResult, type Progress, type SourceReport } from '../report.js';
import { message } from '../../errors.js';
import { ALERT_KINDS, listRepositories, repositoryOf, type AlertKind, type Repository } from './alerts.js';
import { SecondaryRateLimit } from '../../github/rate-limited-client.js';
import type { GitHubClient } from '../../github/client.js';
import type { KnownAlert } from './reports.js';
import { listsOwner, type GithubTarget } from '../../github/targets.js';

export interface GithubSyncDeps {
  readonly targets: readonly GithubTarget[];
  readonly clientFor: (target: GithubTarget) => GitHubClient;
  readonly defectDojo: DefectDojoClient;
  /** Repositories in flight at once; the three alert kinds of one repository go one after another. */
  readonly concurrency: number;
  readonly retry: RetryPolicy;
  readonly progress: Progress;
  /** Only these repositories (`owner/name`; a one-repository run); absent: every repository of every owner. */
  readonly only?: readonly string[];
  /** The alert kinds switched on (`sources.github.<kind>`); absent: all of them. */
  readonly kinds?: readonly AlertKind[];
}

/**
 * The scan types DefectDojo refused as unknown in this run (its release predates the parser): a
 * kind refused once is skipped for every later repository, said in one warning, not failed and
 * sent again per repository. The next run asks again (DefectDojo may have been upgraded).
 */
class RefusedScanTypes {
  private readonly refused = new Map<ScanType, string>();

  constructor(private readonly progress: Progress) {}

  /** Why this kind is skipped, once DefectDojo has refused its scan type. */
  reason(kind: AlertKind): string | undefined {
    return this.refused.get(kind.scanType);
  }

  /** Remembers the refusal; warns the first time. */
  refuse(kind: AlertKind, err: ScanTypeUnknown): string {
    if (!this.refused.has(kind.scanType)) {
      this.refused.set(kind.scanType, err.message);
      const path = `sources.github.${kind.setting}`;
      this.progress.warn(`${err.message}; ${kind.kind} alerts are skipped for the rest of this run (${path}: false, or ${KEYS.find((k) => k.path === path)?.env}=false, turns them off)`);
    }
    return this.refused.get(kind.scanType)!;
  }
}

interface Work {
  readonly client: GitHubClient;
  readonly repository: Repository;
}

async function syncKind(
  work: Work,
  kind: AlertKind,
  deps: GithubSyncDeps,
  productExists: () => Promise<boolean>,
  products: ReadonlyMap<string, KnownProduct> | undefined,
  digests: ImportedDigests,
  refused: RefusedScanTypes,
): Promise<ItemResult> {
  const { repository } = work;
  const base = {
    label: `${repository.fullName} ${kind.kind}`,
    product: repository.fullName,
    engagement: ENGAGEMENTS.github,
    test: kind.test,
    scan_type: kind.scanType,
  };
  const unknown = refused.reason(kind);
  if (unknown) return { ...base, status: 'skipped', reason: unknown, attempts: 0 };
  let alerts: unknown[];
  try {
    alerts = await kind.list(work.client, repository);
  } catch (err) {
    if (err instanceof HttpError && !(err instanceof SecondaryRateLimit) && kind.notEnabled(err)) {
      return { ...base, status: 'skipped', reason: `not enabled on GitHub: ${err.detail ?? err.status}`, attempts: 0 };
    }
    return { ...base, status: 'failed', reason: message(err), attempts: 0 };
  }
  let attempts = 0;
  const notes: string[] = [];
  try {
    // An empty report still goes to an existing product, to close what was fixed; a repository
    // that never had an alert gets no empty product.
    if (alerts.length === 0 && !(await productExists())) {
      return { ...base, status: 'skipped', reason: 'no open alerts and no DefectDojo product yet', attempts: 0 };
    }
    const held = kind.knownPrefix !== undefined && alerts.length > 0 && (await productExists());
    const known = held ? await knownAlerts(deps, repository.fullName, kind.knownPrefix!) : new Map<string, KnownAlert>();
    const { document, kept } = kind.report(repository, alerts, known);
    if (kept && kept.length > 0) {
      notes.push(
        `${kept.length} alert${kept.length === 1 ? '' : 's'} changed on GitHub (severity, summary or identifiers) since DefectDojo first saw ${kept.length === 1 ? 'it' : 'them'}: kept as DefectDojo has them, so each stays one finding with its triage (alerts #${kept.join(', #')})`,
      );
    }
    const content = Buffer.from(JSON.stringify(document));
    const target = { scanType: kind.scanType, productName: repository.fullName, engagementName: ENGAGEMENTS.github, testTitle: kind.test, scan: kind.scan(repository, alerts) };
    const digest = reportDigest({ ...target, doNotReactivate: deps.defectDojo.doNotReactivate }, content);
    if (await digests.unchanged(kind.scanType, digest)) return { ...base, status: 'synced', unchanged: true, ...notesOf(notes), attempts: 0 };
    const counts = await retryTransient(
      (n) => {
        attempts = n;
        return deps.defectDojo.reimport({
          ...target,
          filename: `${kind.kind}.json`,
          content,
          note: (text) => notes.push(text),
          digest,
          // Not in the directory: created by this run's first kind (under the configured type) or new.
          ...(products ? { product: products.get(repository.fullName) ?? null } : {}),
        });
      },
      deps.retry,
      (error, retry, delayMs) => deps.progress.retry(base.label, error, retry, delayMs),
    );
    return { ...base, status: 'synced', findings: alerts.length, ...(counts ? { counts } : {}), ...notesOf(notes), attempts };
  } catch (err) {
    if (err instanceof ScanTypeUnknown) return { ...base, status: 'skipped', reason: refused.refuse(kind, err), ...notesOf(notes), attempts };
    return { ...base, status: 'failed', reason: message(err), ...notesOf(notes), attempts };
  }
}

/** Why an owner could not be listed, naming the target's token when GitHub refused it or cannot show the owner to it. */
function ownerFailure(target: GithubTarget, owner: string, err: unknown): unknown {
  if (err instanceof HttpError && err.status === 404) {
    return new Error(`GitHub at ${target.server}: owner ${owner} does not exist, or the token of its GITHUB_TARGETS entry cannot see it (404 to ${err.operation})`);
  }
  return refusedAs(err, 'the token of its GITHUB_TARGETS entry', 'GitHub', target.server);
}

/** What DefectDojo holds for this kind's alerts in the product, by unique id: the open finding, else the newest. */
async function knownAlerts(deps: GithubSyncDeps, product: string, prefix: string): Promise<Map<string, KnownAlert>> {
  const findings = await retryTransient(() => deps.defectDojo.findingsByUniqueId(product, prefix), deps.retry);
  const best = new Map<string, (typeof findings)[number]>();
  for (const f of findings) {
    const held = best.get(f.uniqueIdFromTool);
    if (!held || (f.active && !held.active) || (f.active === held.active && f.id > held.id)) best.set(f.uniqueIdFromTool, f);
  }
  return new Map([...best].map(([id, f]) => [id, { title: f.title, severity: f.severity, vulnerabilityIds: f.vulnerabilityIds }]));
}

/** An owner or a named repository that could not be listed: reported as a failed item, never dropped. */
function listingFailure(label: string, product: string, test: string, reason: string): ItemResult {
  return {
    label,
    product,
    engagement: ENGAGEMENTS.github,
    test,
    scan_type: '',
    status: 'failed',
    reason,
    attempts: 0,
  };
}

/** `sync-github`: code-scanning, Dependabot and secret-scanning alerts of every repository of every target. */
export async function syncGithub(deps: GithubSyncDeps): Promise<SourceReport> {
  const startedAt = new Date();
  const failures: ItemResult[] = [];
  const work: Work[] = [];
  if (deps.only) await namedRepositories(deps, deps.only, work, failures);
  else await everyRepository(deps, work, failures);
  for (const failure of failures) deps.progress.warn(`${failure.label}: ${failure.reason ?? ''}`);
  const products = work.length > 0 ? await productDirectory(deps.defectDojo, deps.retry, deps.progress) : undefined;
  const digests = new ImportedDigests(deps.defectDojo, deps.progress);
  const refused = new RefusedScanTypes(deps.progress);
  const items = await syncEachKind(work, deps.kinds ?? ALERT_KINDS, deps.concurrency, deps.progress, (w) => {
    const name = w.repository.fullName;
    let exists: Promise<boolean> | undefined;
    // Whether the product was there: the directory's answer, else asked once. Unlike SonarQube's,
    // not true once an earlier kind made it: an empty list has nothing to close there.
    const productExists = async () => (products ? products.has(name) : (exists ??= retryTransient(() => deps.defectDojo.productExists(name), deps.retry)));
    return (kind) => syncKind(w, kind, deps, productExists, products, digests, refused);
  });
  return finishReport({ command: 'sync-github', source: 'github', startedAt }, [...failures, ...items]);
}

/**
 * The named repositories (`GET /repos/{owner}/{repo}`), each on the first target that lists its
 * owner (the public platform first); one no target lists, or GitHub does not show, is a failed item.
 */
async function namedRepositories(deps: GithubSyncDeps, names: readonly string[], work: Work[], failures: ItemResult[]): Promise<void> {
  const clients = new Map<GithubTarget, GitHubClient>();
  for (const name of names) {
    const [owner, repo] = name.split('/') as [string, string];
    const target = deps.targets.find((t) => listsOwner(t, owner));
    const failed = (reason: string) => failures.push(listingFailure(name, name, 'repository', reason));
    if (!target) {
      failed(`no GITHUB_TARGETS entry lists the owner ${owner}`);
      continue;
    }
    if (!clients.has(target)) clients.set(target, deps.clientFor(target));
    const client = clients.get(target)!;
    try {
      const { data } = await client.request('GET /repos/{owner}/{repo}', { owner, repo });
      const repository = repositoryOf(data);
      if (!repository) failed('GitHub answered without the repository\'s name or owner');
      // A moved repository answers under its new owner: written to only when that owner is listed too.
      else if (!listsOwner(target, repository.owner)) failed(`GitHub at ${target.server} shows ${name} under the owner ${repository.owner}, which its GITHUB_TARGETS entry does not list`);
      else work.push({ client, repository });
    } catch (err) {
      failed(err instanceof HttpError && err.status === 404 ? `GitHub at ${target.server} has no repository ${name}, or the token of its GITHUB_TARGETS entry cannot see it` : message(err));
    }
  }
}

/** Every repository of every owner of every target. */
async function everyRepository(deps: GithubSyncDeps, work: Work[], failures: ItemResult[]): Promise<void> {
  for (const target of deps.targets) {
    const client = deps.clientFor(target);
    let viewer: Promise<string | undefined> | undefined;
    const login = () =>
      (viewer ??= client.request('GET /user').then(
        ({ data }) => data.login,
        () => undefined,
      ));
    const seen = new Set<string>();
    for (const owner of target.owners) {
      try {
        for (const repository of await listRepositories(client, owner, login)) {
          if (seen.has(repository.fullName.toLowerCase())) continue;
          seen.add(repository.fullName.toLowerCase());
          work.push({ client, repository });
        }
      } catch (err) {
        failures.push(listingFailure(`${target.server}/${owner} (repository list)`, owner, 'repository list', message(ownerFailure(target, owner, err))));
      }
    }
  }
}
