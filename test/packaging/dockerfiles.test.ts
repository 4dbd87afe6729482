import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, posix } from 'node:path';
import { DEPLOYED_NODE_FLAGS } from '../../bench/http-load.js';
import { REPO_ROOT } from '../support/processes.js';

// Static checks of the two Dockerfiles and .dockerignore (no Docker daemon here or in CI):
// what they copy exists and is sent in the build context, and what they start exists.

interface Instruction {
  readonly keyword: string;
  readonly args: string;
}

interface Stage {
  readonly image: string;
  readonly name?: string;
  readonly body: readonly Instruction[];
}

/** Instructions with continuation lines joined; comments, blank lines and parser directives dropped. */
function instructions(text: string): Instruction[] {
  const out: Instruction[] = [];
  let pending = '';
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    pending += (pending ? ' ' : '') + line.replace(/\\$/, '').trim();
    if (line.endsWith('\\')) continue;
    const [keyword = '', ...rest] = pending.split(/\s+/);
    out.push({ keyword: keyword.toUpperCase(), args: rest.join(' ') });
    pending = '';
  }
  return out;
}

function stages(text: string): Stage[] {
  const result: { image: string; name?: string; body: Instruction[] }[] = [];
  for (const instruction of instructions(text)) {
    if (instruction.keyword === 'FROM') {
      const words = instruction.args.split(/\s+/).filter((w) => !w.startsWith('--'));
      result.push({ image: words[0] ?? '', ...(/^as$/i.test(words[1] ?? '') ? { name: words[2] } : {}), body: [] });
    } else {
      assert.ok(result.length > 0, `${instruction.keyword} before the first FROM`);
      result[result.length - 1]!.body.push(instruction);
    }
  }
  return result;
}

/** Flags (--from=x, --chown=...) apart from the paths; the last path is the destination. */
function copyArgs(args: string): { flags: Record<string, string>; sources: string[]; dest: string } {
  const words = args.trim().startsWith('[') ? (JSON.parse(args) as string[]) : args.split(/\s+/);
  const flags: Record<string, string> = {};
  const paths: string[] = [];
  for (const word of words) {
    const flag = /^--([a-z-]+)(?:=(.*))?$/.exec(word);
    if (flag) flags[flag[1]!] = flag[2] ?? 'true';
    else paths.push(word);
  }
  assert.ok(paths.length >= 2, `COPY ${args}: needs a source and a destination`);
  return { flags, sources: paths.slice(0, -1), dest: paths[paths.length - 1]! };
}

function workdirOf(stage: Stage, before: Instruction): string {
  let dir = '/';
  for (const instruction of stage.body) {
    if (instruction === before) break;
    if (instruction.keyword === 'WORKDIR') dir = posix.resolve(dir, instruction.args.trim());
  }
  return dir;
}

/** .dockerignore patterns as expressions on context-relative paths (Go filepath.Match plus **). */
function ignorePatterns(): RegExp[] {
  return readFileSync(join(REPO_ROOT, '.dockerignore'), 'utf8')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('#'))
    .map((pattern) => {
      assert.ok(!pattern.startsWith('!'), `exceptions (${pattern}) are not understood by this test`);
      const body = posix
        .normalize(pattern.replace(/^\/+/, ''))
        .split(/(\*\*|\*|\?)/)
        .map((part) => (part === '**' ? '.*' : part === '*' ? '[^/]*' : part === '?' ? '[^/]' : part.replace(/[.+^${}()|[\]\\]/g, '\\$&')))
        .join('');
      return new RegExp(`^${body}$`);
    });
}

/** A path is left out of the context when it, or a folder holding it, matches a pattern. */
function ignored(path: string, patterns: readonly RegExp[]): boolean {
  const parts = path.split('/');
  return parts.some((_, i) => patterns.some((p) => p.test(parts.slice(0, i + 1).join('/'))));
}

function filesUnder(path: string): string[] {
  const full = join(REPO_ROOT, path);
  if (!statSync(full).isDirectory()) return [path];
  return readdirSync(full).flatMap((name) => filesUnder(`${path}/${name}`));
}

/**
 * `flags`: node's own flags before the script, the same in the image, in `npm start` (`scripts`)
 * and in the benchmarks. The backend runs with one V8 helper thread (docs/self-hosting.md, The
 * process); the sync service, a batch job, keeps Node's defaults.
 */
const IMAGES = [
  { file: 'Dockerfile', title: 'gatehouse', entrySource: 'server/main.ts', flags: DEPLOYED_NODE_FLAGS, scripts: ['start', 'start:minimal'] },
  { file: 'Dockerfile.sync', title: 'gatehouse-sync', entrySource: 'server/sync/main.ts', flags: [], scripts: ['start:sync'] },
] as const;

describe('Dockerfiles', () => {
  for (const { file, title, entrySource, flags, scripts } of IMAGES) {
    describe(file, () => {
      const all = () => stages(readFileSync(join(REPO_ROOT, file), 'utf8'));
      const final = () => all()[all().length - 1]!;
      const build = () => all().find((s) => s.name === 'build');
      const of = (stage: Stage, keyword: string) => stage.body.filter((i) => i.keyword === keyword);

      it('builds in one stage and runs in another, both from node:24-slim', () => {
        const list = all();
        assert.ok(list.length >= 2, `${list.length} stage(s)`);
        for (const stage of list) assert.match(stage.image, /^node:24-slim(@sha256:[0-9a-f]{64})?$/);
        assert.ok(build(), 'no stage named build');
      });

      it('runs as a user other than root in the final stage', () => {
        const users = of(final(), 'USER');
        assert.ok(users.length > 0, 'the final stage has no USER');
        const user = users[users.length - 1]!.args.trim().split(':')[0]!;
        assert.ok(!['root', '0'].includes(user), `USER ${user}`);
      });

      it('downloads nothing with ADD', () => {
        for (const stage of all()) for (const add of of(stage, 'ADD')) assert.doesNotMatch(add.args, /https?:\/\//);
      });

      it('copies only paths that exist and that .dockerignore sends', () => {
        const patterns = ignorePatterns();
        let copied = 0;
        for (const stage of all()) {
          for (const copy of of(stage, 'COPY')) {
            const { flags, sources } = copyArgs(copy.args);
            if (flags.from) continue;
            for (const source of sources) {
              copied += 1;
              const path = posix.normalize(source).replace(/\/$/, '');
              assert.ok(existsSync(join(REPO_ROOT, path)), `COPY ${source}: not in the repository`);
              // Of a folder, the TypeScript sources that tsc compiles (bench/results, say, may stay out).
              const needed = filesUnder(path).filter((f) => f === path || f.endsWith('.ts'));
              const left = needed.filter((f) => ignored(f, patterns));
              assert.deepEqual(left, [], `COPY ${source}: left out of the context by .dockerignore`);
            }
          }
        }
        assert.ok(copied > 0, 'no COPY from the build context');
      });

      it('compiles everything tsconfig.json includes, with the project’s own tsconfig', () => {
        const stage = build()!;
        const tsconfig = JSON.parse(readFileSync(join(REPO_ROOT, 'tsconfig.json'), 'utf8')) as { include: string[] };
        const copied = of(stage, 'COPY').flatMap((c) => copyArgs(c.args).sources.map((s) => posix.normalize(s).replace(/\/$/, '')));
        for (const required of ['package.json', 'package-lock.json', 'tsconfig.json', ...tsconfig.include.map((glob) => glob.split('/')[0]!)]) {
          assert.ok(copied.includes(required), `the build stage does not copy ${required}`);
        }
        assert.ok(
          of(stage, 'RUN').some((r) => /\btsc -p tsconfig\.json\b/.test(r.args)),
          'the build stage does not run tsc -p tsconfig.json',
        );
      });

      it(`starts the compiled ${entrySource}, copied from the build stage`, () => {
        const stage = final();
        const entrypoint = of(stage, 'ENTRYPOINT').at(-1);
        const cmd = of(stage, 'CMD').at(-1);
        const argv = [...(entrypoint ? (JSON.parse(entrypoint.args) as string[]) : []), ...(cmd ? (JSON.parse(cmd.args) as string[]) : [])];
        assert.equal(argv[0], 'node', `starts ${JSON.stringify(argv)}`);
        assert.deepEqual(argv.slice(1, -1), flags, `node's flags in ${JSON.stringify(argv)}`);
        const script = argv.at(-1) ?? '';
        // tsconfig: rootDir ".", outDir "build": build/<path>.js is compiled from <path>.ts.
        const source = script.replace(/^build\//, '').replace(/\.js$/, '.ts');
        assert.equal(source, entrySource);
        assert.ok(existsSync(join(REPO_ROOT, source)), `${source} does not exist`);
        const at = posix.resolve(workdirOf(stage, (entrypoint ?? cmd)!), script);
        const fromBuild = of(stage, 'COPY')
          .map((c) => ({ c, ...copyArgs(c.args) }))
          .filter(({ flags }) => flags.from === 'build')
          .map(({ c, dest }) => posix.resolve(workdirOf(stage, c), dest));
        assert.ok(
          fromBuild.some((dest) => at.startsWith(`${dest}/`)),
          `${at} is not under what the final stage copies from the build stage (${fromBuild.join(', ')})`,
        );
      });

      it(`starts node with the same flags in npm ${scripts.join(' and ')}`, () => {
        const declared = (JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
        for (const name of scripts) {
          const words = (declared[name] ?? '').split(/\s+/);
          assert.equal(words[0], 'node', `npm run ${name}: ${declared[name]}`);
          assert.deepEqual(words.slice(1, -1), flags, `npm run ${name}: ${declared[name]}`);
        }
      });

      it('keeps package.json beside the code, installs runtime dependencies only and exposes 8080', () => {
        const stage = final();
        const copied = of(stage, 'COPY').flatMap((c) => {
          const { flags, sources } = copyArgs(c.args);
          return flags.from ? [] : sources;
        });
        assert.ok(copied.includes('package.json'), 'the final stage does not copy package.json (its name and version are read at run time)');
        assert.ok(of(stage, 'ENV').some((e) => /\bNODE_ENV=production\b/.test(e.args)), 'NODE_ENV=production is not set');
        assert.ok(of(stage, 'RUN').some((r) => /\bnpm ci\b.*--omit=dev/.test(r.args)), 'no npm ci --omit=dev');
        assert.ok(of(stage, 'EXPOSE').some((e) => e.args.split(/\s+/).includes('8080')), 'no EXPOSE 8080');
      });

      it('carries the OCI labels', () => {
        const labels = of(final(), 'LABEL').map((l) => l.args).join(' ');
        assert.match(labels, /org\.opencontainers\.image\.source="https:\/\/github\.com\/[^"]+"/);
        assert.match(labels, /org\.opencontainers\.image\.licenses="MIT"/);
        assert.match(labels, new RegExp(`org\\.opencontainers\\.image\\.title="${title}"`));
      });
    });
  }

  it('.dockerignore leaves out what the images never need', () => {
    const patterns = ignorePatterns();
    for (const path of ['node_modules', '.git', 'dist', 'coverage', 'build', 'node_modules/yaml/package.json', '.env']) {
      assert.ok(ignored(path, patterns), `${path} is sent in the build context`);
    }
  });
});
