import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import { parse } from 'yaml';
import { helmChart, withValue, type Tree } from '../support/helm-chart.js';
import { REPO_ROOT } from '../support/processes.js';

// Static checks of charts/gatehouse (the backend), as for charts/gatehouse-sync: no Helm binary
// runs on the development machines or in CI, so the templates are read as text, the values are
// checked against the schema, and the settings against the documented settings tables.
const { chart, values, schema, template, valueReferences } = helmChart('gatehouse');

const doc = (name: string): string => readFileSync(join(REPO_ROOT, 'docs', name), 'utf8');

/** The setting names (first column) of the table under `## heading` in a docs page. */
function documentedSettings(page: string, heading: string): { name: string; meaning: string }[] {
  const text = doc(page);
  const section = text.slice(text.indexOf(`## ${heading}\n`)).split(/\n## /)[0]!;
  return section
    .split('\n')
    .filter((line) => /^\| `[A-Z]/.test(line))
    .flatMap((line) => {
      // | `NAME` (or `A`, `B`) | default | meaning |
      const cells = line.slice(2).split(' | ');
      const meaning = cells.slice(2).join(' | ');
      return [...cells[0]!.matchAll(/`([A-Z][A-Z0-9_]+)`/g)].map((m) => ({ name: m[1]!, meaning }));
    });
}

/** The backend's environment variable of each entry of `.Values.secrets` (the table in _helpers.tpl). */
function secretVariables(): Record<string, string> {
  const helpers = template('_helpers.tpl');
  const body = /\{\{- define "gatehouse\.secretVariables" -\}\}\n([\s\S]*?)\{\{- end \}\}/.exec(helpers);
  assert.ok(body, 'no gatehouse.secretVariables in _helpers.tpl');
  return parse(body[1]!) as Record<string, string>;
}

const documented = () => [...documentedSettings('ledger.md', 'Settings (backend)'), ...documentedSettings('broker.md', 'Broker settings')];

/** A setting whose value is a secret: the docs say so, or its name does. */
const isSecret = ({ name, meaning }: { name: string; meaning: string }) => /\(secret/.test(meaning) || /SECRET|PRIVATE_KEY|_TOKEN$|_URI$|_KEY$|WEBHOOK_URL$/.test(name);

describe('Helm chart gatehouse (the backend)', () => {
  describe('values.schema.json', () => {
    const validator = () => new Ajv({ allErrors: true }).compile(schema());

    it("accepts the chart's own values.yaml, and settings given as numbers or booleans", () => {
      const validate = validator();
      assert.equal(validate(values()), true, JSON.stringify(validate.errors));
      assert.equal(validate(withValue(withValue(values(), 'settings.FORGE_APP_ID', 123456), 'settings.AUTO_UPDATE_BRANCHES', true)), true, JSON.stringify(validate.errors));
    });

    for (const [what, path, value, keyword] of [
      ['a secret given as a plain setting', 'settings.MONGODB_URI', 'mongodb://user:pw@db/gatehouse', 'additionalProperties'],
      ['the app key given as a plain setting', 'settings.FORGE_APP_PRIVATE_KEY', '-----BEGIN RSA PRIVATE KEY-----', 'additionalProperties'],
      ['an unknown setting', 'settings.LEDGER_AUDIENCES', 'x', 'additionalProperties'],
      ['a secret reference with no key', 'secrets.appPrivateKey', { name: 'gatehouse' }, 'required'],
      ['a Secret name Kubernetes refuses', 'secrets.mongodbUri.name', 'Gatehouse_Mongo', 'pattern'],
      ['an unknown secret entry', 'secrets.githubToken', { name: 'x', key: 'y' }, 'additionalProperties'],
      ['no replica', 'replicaCount', 0, 'minimum'],
      ['a log level the backend refuses', 'logLevel', 'verbose', 'enum'],
      ['an ingress path that is not absolute', 'ingress.hosts', [{ host: 'g.example.com', paths: [{ path: 'api', pathType: 'Prefix' }] }], 'pattern'],
      ['a scrape interval Prometheus cannot read', 'serviceMonitor.interval', '30 seconds', 'pattern'],
      ['a grace shorter than the backend drains', 'terminationGracePeriodSeconds', 5, 'minimum'],
    ] as const) {
      it(`rejects ${what}`, () => {
        const validate = validator();
        assert.equal(validate(withValue(values(), path, value)), false, `${path}: ${JSON.stringify(value)} was accepted`);
        assert.ok(
          validate.errors?.some((e) => e.keyword === keyword),
          `expected a "${keyword}" error, got ${JSON.stringify(validate.errors)}`,
        );
      });
    }

    it('describes exactly the entries of values.yaml under settings and secrets', () => {
      const properties = schema().properties as Record<string, Tree>;
      assert.deepEqual(Object.keys(properties.settings!.properties as Tree).sort(), Object.keys(values().settings as Tree).sort());
      assert.deepEqual(Object.keys(properties.secrets!.properties as Tree).sort(), Object.keys(values().secrets as Tree).sort());
    });
  });

  describe('settings', () => {
    it('every documented backend setting is reachable from the chart exactly once: a secret by reference, anything else as a value', () => {
      const settings = documented();
      assert.ok(settings.length >= 25, `only ${settings.length} documented settings found`);
      const plain = Object.keys(values().settings as Tree);
      const secret = Object.values(secretVariables());
      // PORT is the container port; LOG_LEVEL is logLevel; HOST stays unset (every interface of the pod).
      const fixed = ['PORT', 'LOG_LEVEL', 'HOST'];
      const reachable = [...plain, ...secret, ...fixed];
      assert.deepEqual(reachable.filter((name, i) => reachable.indexOf(name) !== i), [], 'a setting reachable twice');
      assert.deepEqual(settings.map((s) => s.name).filter((name) => !reachable.includes(name)), [], 'documented settings the chart cannot set');
      assert.deepEqual(reachable.filter((name) => !settings.some((s) => s.name === name)), [], 'chart settings nobody documents');
      for (const setting of settings) {
        if (isSecret(setting)) assert.ok(secret.includes(setting.name), `${setting.name} is a secret: it must come from a Secret, not from values`);
        else if (!fixed.includes(setting.name)) assert.ok(plain.includes(setting.name), `${setting.name} is not a secret: it is a value under settings`);
      }
    });

    it('each entry of secrets defaults to no Secret, with a key name of its own', () => {
      const secrets = values().secrets as Record<string, { name: string; key: string }>;
      assert.deepEqual(Object.keys(secrets).sort(), Object.keys(secretVariables()).sort());
      for (const [entry, ref] of Object.entries(secrets)) {
        assert.equal(ref.name, '', entry);
        assert.match(ref.key, /^[a-z-]+$/, entry);
      }
      const keys = Object.values(secrets).map((r) => r.key);
      assert.equal(new Set(keys).size, keys.length, 'two entries default to the same key');
    });

    it('every setting defaults to empty (the backend keeps its own default)', () => {
      for (const [name, value] of Object.entries(values().settings as Tree)) assert.equal(value, '', name);
    });
  });

  describe('templates', () => {
    it('read only values that exist', () => {
      const { files, count, missing } = valueReferences();
      assert.ok(files.length >= 7, `templates: ${files.join(', ')}`);
      assert.ok(count > 40, `only ${count} .Values references found`);
      assert.deepEqual(missing, []);
    });

    it('run replicaCount replicas, replaced one at a time with none unavailable, probed on /healthz', () => {
      const text = template('deployment.yaml');
      assert.match(text, /^ {2}replicas: \{\{ \.Values\.replicaCount \}\}$/m);
      assert.match(text, /maxUnavailable: 0/);
      const probes = [...text.matchAll(/(livenessProbe|readinessProbe):\n\s+httpGet:\n\s+path: (\S+)/g)].map((m) => [m[1], m[2]]);
      assert.deepEqual(probes, [
        ['livenessProbe', '/healthz'],
        ['readinessProbe', '/healthz'],
      ]);
      // The settings loop skips empty values; the secrets loop reads the one table.
      assert.match(text, /range \$name, \$value := \.Values\.settings/);
      // A number from a values file is a float64: written by toJson, never as 1.234567e+06.
      assert.match(text, /\$text := ternary \(toJson \$value\) \(toString \$value\) \(kindIs "float64" \$value\)/);
      assert.match(text, /if ne \$text ""/);
      assert.match(text, /range \$entry, \$variable := include "gatehouse\.secretVariables" \. \| fromYaml/);
      assert.match(text, /secretKeyRef:\n\s+name: \{\{ \$ref\.name \}\}\n\s+key: \{\{ \$ref\.key \}\}/);
    });

    it('refuse to render without an image, or with several replicas but no MongoDB or cursor key, or a ServiceMonitor without the metrics bearer', () => {
      assert.match(template('deployment.yaml'), /^\{\{- include "gatehouse\.checks" \. \}\}/);
      const checks = template('_helpers.tpl');
      // The image first: the one check every release fails without.
      assert.match(checks, /define "gatehouse\.checks" -\}\}\n\{\{- \$_ := required "image\.repository is required[^"]*" \.Values\.image\.repository/);
      assert.match(checks, /if gt \(int \.Values\.replicaCount\) 1 \}\}\n[^\n]*required "secrets\.mongodbUri\.name is required[^"]*" \.Values\.secrets\.mongodbUri\.name/);
      assert.match(checks, /required "secrets\.ledgerCursorKey\.name is required[^"]*" \.Values\.secrets\.ledgerCursorKey\.name/);
      assert.match(checks, /if \.Values\.serviceMonitor\.enabled \}\}\n[^\n]*required "secrets\.metricsToken\.name is required[^"]*" \.Values\.secrets\.metricsToken\.name/);
      assert.equal((values().image as Tree).repository, '');
    });

    it('make a PodDisruptionBudget only with more than one replica, and the Ingress and ServiceMonitor only when enabled', () => {
      assert.match(template('pdb.yaml'), /^\{\{- if and \.Values\.podDisruptionBudget\.enabled \(gt \(int \.Values\.replicaCount\) 1\) \}\}\napiVersion: policy\/v1\nkind: PodDisruptionBudget/);
      assert.match(template('ingress.yaml'), /^\{\{- if \.Values\.ingress\.enabled \}\}\napiVersion: networking\.k8s\.io\/v1\nkind: Ingress/);
      assert.match(template('servicemonitor.yaml'), /^\{\{- if \.Values\.serviceMonitor\.enabled \}\}\n#[^\n]*\napiVersion: monitoring\.coreos\.com\/v1\nkind: ServiceMonitor/);
      assert.match(template('servicemonitor.yaml'), /path: \/metrics\n[\s\S]*authorization:\n\s+type: Bearer\n\s+credentials:\n\s+name: \{\{ \.Values\.secrets\.metricsToken\.name \}\}/);
      const { ingress, serviceMonitor, podDisruptionBudget } = values() as { ingress: Tree; serviceMonitor: Tree; podDisruptionBudget: Tree };
      assert.equal(ingress.enabled, false);
      assert.equal(serviceMonitor.enabled, false);
      assert.equal(podDisruptionBudget.enabled, true);
    });

    it('keep the pod hardened, with a grace longer than the pre-stop pause and the 10 s drain', () => {
      const text = template('deployment.yaml');
      assert.match(text, /automountServiceAccountToken: false/);
      const { securityContext, podSecurityContext, terminationGracePeriodSeconds, preStopSleepSeconds, resources } = values() as {
        securityContext: Tree;
        podSecurityContext: Tree;
        terminationGracePeriodSeconds: number;
        preStopSleepSeconds: number;
        resources: { requests?: Tree; limits?: Tree };
      };
      assert.deepEqual(
        { ...securityContext },
        {
          runAsNonRoot: true,
          runAsUser: 1000,
          readOnlyRootFilesystem: true,
          allowPrivilegeEscalation: false,
          capabilities: { drop: ['ALL'] },
          seccompProfile: { type: 'RuntimeDefault' },
        },
      );
      assert.equal(podSecurityContext.runAsNonRoot, true);
      assert.ok(terminationGracePeriodSeconds >= preStopSleepSeconds + 10 + 5, 'the grace covers the pause, the drain and a margin');
      assert.ok(resources.requests?.cpu && resources.requests.memory && resources.limits?.memory, 'resource defaults');
      assert.match(template('serviceaccount.yaml'), /automountServiceAccountToken: false/);
    });
  });

  it("defaults the image tag to appVersion, which follows package.json's version", () => {
    const meta = chart();
    const pkg = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string };
    assert.equal(meta.apiVersion, 'v2');
    assert.equal(meta.name, 'gatehouse');
    assert.equal(meta.appVersion, pkg.version);
    assert.equal((values().image as Tree).tag, '');
    assert.match(template('deployment.yaml'), /\.Values\.image\.tag \| default \.Chart\.AppVersion/);
    const release = JSON.parse(readFileSync(join(REPO_ROOT, 'release-please-config.json'), 'utf8')) as { packages: Record<string, { 'extra-files': unknown[] }> };
    assert.ok(release.packages['.']!['extra-files'].includes('charts/gatehouse/Chart.yaml'), 'release-please bumps the chart');
  });

  it("docs/self-hosting.md's scaling section installs it with MongoDB, the cursor key and the image of your release", () => {
    const text = doc('self-hosting.md');
    const scaling = text.slice(text.indexOf('## Scaling\n')).split(/\n## /)[0]!;
    const install = /helm install [^\n]*charts\/gatehouse (?:[^\n]*\\\n)*[^\n]*/.exec(scaling);
    assert.ok(install, 'no helm install of charts/gatehouse under ## Scaling');
    for (const set of ['image.repository=ghcr.io/your-org/gatehouse', 'secrets.mongodbUri.name=', 'secrets.ledgerCursorKey.name=', 'replicaCount=']) {
      assert.ok(install[0].includes(`--set ${set}`), `${set} in: ${install[0]}`);
    }
  });
});
