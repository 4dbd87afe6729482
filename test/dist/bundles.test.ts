import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { parse } from 'yaml';
import { CLI_ARGS, MAIN_INPUTS, POST_INPUTS } from '../support/bundle-runs.js';
import { REPO_ROOT, runToEnd } from '../support/processes.js';
import { closedPort } from '../support/servers.js';
import { runAction, type ActionRun } from '../support/runner.js';

/**
 * How to run each bundle once on a path that needs no network. A new bundle without an entry
 * here fails the suite: ncc turns a missing module into a runtime error only a run can reveal.
 */
const SMOKE: Record<string, { inputs: Record<string, string>; check: (run: ActionRun) => void }> = {
  'record-deployment': {
    inputs: MAIN_INPUTS['record-deployment']!,
    check: (run) => {
      assert.equal(run.code, 0, run.stderr);
      assert.match(run.stdout, /::notice::record-deployment: api-url is empty/);
    },
  },
  'request-token': {
    inputs: MAIN_INPUTS['request-token']!,
    check: (run) => {
      assert.equal(run.code, 0, run.stderr);
      assert.match(run.stdout, /^::warning::Gatehouse token unavailable \(broker disabled\); comments fall back to the default bot$/m);
    },
  },
};

SMOKE.gate = {
  inputs: MAIN_INPUTS.gate!,
  check: (run) => {
    assert.equal(run.code, 1, run.stderr);
    assert.match(run.stdout, /::error::no answer: no base input given/);
  },
};

SMOKE.sync = {
  inputs: MAIN_INPUTS.sync!,
  check: (run) => {
    assert.equal(run.code, 1, run.stderr);
    assert.match(run.stdout, /::error::invalid configuration:%0A  - defectdojo\.url is required/);
    assert.ok(!run.stdout.replace(/^::add-mask::.*$/m, '').includes('dd-smoke-token'));
  },
};

/** Post steps (`dist/<name>/post/index.js`), run once with no saved state. */
const POST_SMOKE: Record<string, (run: ActionRun) => void> = {
  'request-token': (run) => {
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /no token to revoke/);
  },
};

const DIST = join(REPO_ROOT, 'dist');
const bundles = existsSync(DIST)
  ? readdirSync(DIST).filter((name) => existsSync(join(DIST, name, 'index.js')))
  : [];

describe('dist/ bundles', () => {
  it('exist, one per action', () => {
    const actions = readdirSync(join(REPO_ROOT, 'actions')).filter((name) => existsSync(join(REPO_ROOT, 'actions', name, 'main.ts')));
    assert.deepEqual(bundles.sort(), actions.sort());
  });

  it('licenses.txt lists the packages of every chunk, the lazily loaded ones included', () => {
    const listed = (file: string) => new Set(readFileSync(join(DIST, file), 'utf8').split('\n\n').map((entry) => entry.split('\n')[0]));
    // The main chunk and the chunks loaded on demand (MongoDB for serve, YAML for .mega-linter.yml).
    for (const [file, packages] of [
      ['sync/cli/licenses.txt', ['croner', 'yaml', 'mongodb', 'express', 'pino']],
      ['gate/licenses.txt', ['@actions/core', 'yaml']],
      ['gate/cli/licenses.txt', ['yaml']],
    ] as const) {
      const names = listed(file);
      for (const name of packages) assert.ok(names.has(name), `${file} lacks ${name}`);
    }
  });

  for (const name of bundles) {
    it(`${name}: runs once from its bundle`, async () => {
      const smoke = SMOKE[name];
      assert.ok(smoke, `no smoke run defined for dist/${name}`);
      smoke.check(await runAction(join(DIST, name, 'index.js'), smoke.inputs));
    });

    if (existsSync(join(DIST, name, 'post', 'index.js'))) {
      it(`${name}: its post step runs once from its bundle`, async () => {
        const smoke = POST_SMOKE[name];
        assert.ok(smoke, `no smoke run defined for dist/${name}/post`);
        smoke(await runAction(join(DIST, name, 'post', 'index.js'), POST_INPUTS[name] ?? {}));
      });
    }

    if (existsSync(join(DIST, name, 'cli', 'index.js'))) {
      it(`${name}: its command-line bundle runs once (--help)`, async () => {
        const result = await runToEnd(process.execPath, [join(DIST, name, 'cli', 'index.js'), ...CLI_ARGS]);
        assert.equal(result.code, 0, result.stderr);
        assert.match(result.stdout, /^Usage: /);
      });
    }

    if (name === 'sync') {
      it('sync: with MONGODB_URI, serve loads the MongoDB chunk from the bundle and listens (deployment mode, not ready)', async () => {
        const port = await closedPort();
        const child = spawn(process.execPath, [join(DIST, name, 'cli', 'index.js'), 'serve'], {
          env: { PATH: process.env.PATH ?? '', PORT: '0', HOST: '127.0.0.1', MONGODB_URI: `mongodb://127.0.0.1:${port}/gatehouse` },
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        let out = '';
        child.stdout.on('data', (d: Buffer) => (out += d.toString()));
        child.stderr.on('data', (d: Buffer) => (out += d.toString()));
        const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
        try {
          for (let i = 0; i < 200 && !out.includes('gatehouse-sync listening') && child.exitCode === null; i++) await new Promise((r) => setTimeout(r, 50));
          assert.match(out, /gatehouse-sync listening/, out);
          child.kill('SIGTERM');
          assert.equal(await exited, 0, out);
        } finally {
          if (child.exitCode === null) child.kill('SIGKILL');
        }
      });

      it('sync: the command-line bundle loads the service chunk for serve (mode cronjob, nothing configured: exit 2)', async () => {
        const result = await runToEnd(process.execPath, [join(DIST, name, 'cli', 'index.js'), 'serve'], { env: { PATH: process.env.PATH ?? '', SYNC_MODE: 'cronjob' } });
        assert.equal(result.code, 2, result.stdout + result.stderr);
        assert.match(result.stderr, /^gatehouse-sync: invalid configuration:\n {2}- defectdojo\.url is required/);
      });
    }

    it(`${name}: is an ES module bundle, every file of it (entries and lazily loaded chunks) under 2 MB`, () => {
      assert.deepEqual(JSON.parse(readFileSync(join(DIST, name, 'package.json'), 'utf8')), { type: 'module' });
      const files = readdirSync(join(DIST, name), { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.js'));
      for (const file of files) assert.ok(statSync(join(DIST, name, file)).size < 2 * 1024 * 1024, `${name}/${file} is 2 MB or more`);
    });
  }
});

describe('action metadata', () => {
  const actionFiles = readdirSync(join(REPO_ROOT, 'actions'))
    .map((name) => join(REPO_ROOT, 'actions', name, 'action.yml'))
    .filter((file) => existsSync(file));

  for (const file of actionFiles) {
    const label = relative(REPO_ROOT, file);
    it(`${label} runs its own bundle on node24 and declares every input the code reads`, () => {
      const meta = parse(readFileSync(file, 'utf8')) as { runs: { using: string; main: string; post?: string }; inputs: Record<string, unknown> };
      assert.equal(meta.runs.using, 'node24');
      const own = join('dist', relative(join(REPO_ROOT, 'actions'), dirname(file)));
      const main = resolve(dirname(file), meta.runs.main);
      assert.equal(relative(REPO_ROOT, main), join(own, 'index.js'));
      assert.ok(existsSync(main), `${main} missing`);
      const hasPost = existsSync(join(dirname(file), 'post.ts'));
      assert.equal(meta.runs.post === undefined, !hasPost, 'runs.post is declared exactly when post.ts exists');
      if (meta.runs.post) assert.equal(relative(REPO_ROOT, resolve(dirname(file), meta.runs.post)), join(own, 'post', 'index.js'));
      const sources = readdirSync(dirname(file))
        .filter((f) => f.endsWith('.ts'))
        .map((f) => readFileSync(join(dirname(file), f), 'utf8'))
        .join('\n');
      const read = new Set([...sources.matchAll(/(?:optionalInput|requiredInput|booleanInput|integerInput)\(core, '([a-z-]+)'/g)].map((m) => m[1]!));
      for (const input of read) assert.ok(input in meta.inputs, `${label} lacks input ${input}`);
    });
  }
});
