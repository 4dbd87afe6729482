import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import { KEYS, loadSyncConfig } from '../../server/sync/config.js';
import { helmChart, isTree, lookup, withValue, type Tree } from '../support/helm-chart.js';
import { REPO_ROOT } from '../support/processes.js';
import { configFile } from '../sync/support.js';

// Static checks of charts/gatehouse-sync: no Helm binary is needed (CI has none), so the
// templates are read as text and the values against the schema and the service's own KEYS.
const { chart, values, schema, template, valueReferences } = helmChart('gatehouse-sync');

/** The dotted paths of every leaf (anything but a mapping) under `tree`. */
function leafPaths(tree: Tree, prefix = ''): string[] {
  return Object.entries(tree).flatMap(([key, value]) => {
    const path = prefix ? `${prefix}.${key}` : key;
    return isTree(value) ? leafPaths(value, path) : [path];
  });
}

/** What the ConfigMap does to .Values.config: empty strings (and nulls) are left out. */
function withoutEmpty(tree: Tree): Tree {
  const out: Tree = {};
  for (const [key, value] of Object.entries(tree)) {
    if (isTree(value)) out[key] = withoutEmpty(value);
    else if (value !== '' && value !== null && value !== undefined) out[key] = value;
  }
  return out;
}

const keyPaths = () => KEYS.map((k) => k.path).sort();

describe('Helm chart gatehouse-sync', () => {
  describe('values.schema.json', () => {
    const validator = () => new Ajv({ allErrors: true }).compile(schema());

    it('accepts the chart’s own values.yaml', () => {
      const validate = validator();
      assert.equal(validate(values()), true, JSON.stringify(validate.errors));
    });

    for (const [what, path, value, keyword] of [
      ['an unknown mode', 'config.mode', 'hourly', 'enum'],
      ['maxIssuesPerRun above 1000', 'config.github.maxIssuesPerRun', 5000, 'maximum'],
      ['maxIssuesPerRun below 0', 'config.github.maxIssuesPerRun', -1, 'minimum'],
      ['a minSeverity that is not one of the five', 'config.github.minSeverity', 'urgent', 'enum'],
      ['an unknown configuration key', 'config.github.token', 'x', 'additionalProperties'],
      ['an unknown source', 'config.sources.gitlab', { enabled: true }, 'additionalProperties'],
      ['a URL carrying credentials', 'config.sources.dependencytrack.url', 'https://user:pw@dt.example.com', 'pattern'],
      ['an interval below 60 seconds', 'config.schedule.github', 30, 'oneOf'],
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

    it('describes exactly the configuration keys under config', () => {
      const leaves = (node: Tree, prefix = ''): string[] =>
        Object.entries((node.properties ?? {}) as Tree).flatMap(([key, child]) => {
          const path = prefix ? `${prefix}.${key}` : key;
          return isTree(child) && isTree(child.properties) ? leaves(child, path) : [path];
        });
      const config = (schema().properties as Tree).config as Tree;
      assert.deepEqual(leaves(config).sort(), keyPaths());
    });
  });

  describe('values.yaml', () => {
    it('holds exactly the service’s configuration keys under config', () => {
      assert.deepEqual(leafPaths(values().config as Tree).sort(), keyPaths());
    });

    it('defaults each configuration key to the service’s own default (empty where it has none)', () => {
      const config = values().config as Tree;
      for (const key of KEYS) assert.deepEqual(lookup(config, key.path).value, key.fallback ?? '', key.path);
    });

    it('makes, as the ConfigMap renders it, a configuration file the service accepts', () => {
      const file = configFile(JSON.stringify(withoutEmpty(values().config as Tree)));
      const { config } = loadSyncConfig({ file, env: {} });
      assert.equal(config.mode, 'deployment');
      assert.equal(config.github.maxIssuesPerRun, 50);
    });

    it('has every value a template reads', () => {
      const { files, count, missing } = valueReferences();
      assert.ok(files.length >= 5, `templates: ${files.join(', ')}`);
      assert.ok(count > 20, `only ${count} .Values references found`);
      assert.deepEqual(missing, []);
    });
  });

  describe('templates', () => {
    it('render every configuration key into the ConfigMap', () => {
      const text = template('configmap.yaml');
      for (const path of keyPaths()) {
        assert.ok(text.includes(`"${path}"`), `configmap.yaml does not name ${path}`);
        const dig = `dig ${path.split('.').map((p) => `"${p}"`).join(' ')} ""`;
        assert.ok(text.includes(dig), `configmap.yaml does not read ${path} (${dig})`);
      }
    });

    it('run one replica, replaced by Recreate, only in mode deployment', () => {
      const text = template('deployment.yaml');
      assert.match(text, /^\{\{- if eq \.Values\.config\.mode "deployment" \}\}/);
      assert.match(text, /^\s+replicas: 1$/m);
      assert.match(text, /^\s+type: Recreate$/m);
      assert.match(template('service.yaml'), /^\{\{- if eq \.Values\.config\.mode "deployment" \}\}/);
    });

    it('run a CronJob that never overlaps, only in mode cronjob', () => {
      const text = template('cronjob.yaml');
      assert.match(text, /^\{\{- if eq \.Values\.config\.mode "cronjob" \}\}/);
      assert.match(text, /^\s+concurrencyPolicy: Forbid$/m);
      assert.match(text, /^\s+restartPolicy: Never$/m);
    });

    it('require the Secret and keep the pod hardened', () => {
      const pod = template('_helpers.tpl');
      assert.match(pod, /required "existingSecret is required[^"]*" \.Values\.existingSecret/);
      assert.match(pod, /required "image\.repository is required[^"]*" \.Values\.image\.repository/, 'no default image of an owner the user does not control');
      assert.equal((values().image as Tree).repository, '');
      assert.match(pod, /automountServiceAccountToken: false/);
      assert.match(pod, /terminationGracePeriodSeconds: \{\{ add \.Values\.shutdownGraceSeconds \d+ \}\}/);
      const { securityContext, podSecurityContext } = values() as { securityContext: Tree; podSecurityContext: Tree };
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
    });
  });

  it('every documented helm install sets image.repository (the chart has no image of its own)', () => {
    const docs = readFileSync(join(REPO_ROOT, 'docs', 'self-hosting.md'), 'utf8');
    const installs = [...docs.matchAll(/helm install [^\n]*(?:\\\n[^\n]*)*/g)].map((m) => m[0]);
    assert.ok(installs.length > 0);
    for (const install of installs) assert.match(install, /--set image\.repository=ghcr\.io\/your-org\//, install);
  });

  it('defaults the image tag to appVersion, which follows package.json’s version', () => {
    const meta = chart();
    const pkg = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string };
    assert.equal(meta.apiVersion, 'v2');
    assert.equal(meta.name, 'gatehouse-sync');
    assert.equal(meta.appVersion, pkg.version);
    assert.equal((values().image as Tree).tag, '');
    assert.match(template('_helpers.tpl'), /\.Values\.image\.tag \| default \.Chart\.AppVersion/);
  });
});
