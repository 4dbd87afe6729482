import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import type { ActionsCore } from '../../actions/shared/core.js';
import { REPO_ROOT, runToEnd } from './processes.js';

/** Parses a `GITHUB_OUTPUT` file (`name<<delimiter` blocks, as @actions/core writes them). */
export function parseOutputFile(text: string): Record<string, string> {
  const outputs: Record<string, string> = {};
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const match = /^([^<=]+)<<(.+)$/.exec(lines[i]!);
    if (match) {
      const [, name, delimiter] = match;
      const value: string[] = [];
      while (++i < lines.length && lines[i] !== delimiter) value.push(lines[i]!);
      outputs[name!] = value.join('\n');
    } else if (lines[i]!.includes('=')) {
      const [name, ...rest] = lines[i]!.split('=');
      outputs[name!] = rest.join('=');
    }
  }
  return outputs;
}

export interface ActionRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly outputs: Record<string, string>;
  /** What the step saved with `core.saveState` (the runner hands it to the post step as `STATE_<name>`). */
  readonly state: Record<string, string>;
  readonly summary: string;
}

/** The `default:` of every input in `actions/<name>/action.yml` for a bundle under `dist/<name>/`. */
function inputDefaults(bundle: string): Record<string, string> {
  const name = /[\\/]dist[\\/]([^\\/]+)[\\/]/.exec(bundle)?.[1];
  const file = name ? join(REPO_ROOT, 'actions', name, 'action.yml') : undefined;
  if (!file || !existsSync(file)) return {};
  const meta = parse(readFileSync(file, 'utf8')) as { inputs?: Record<string, { default?: unknown }> };
  return Object.fromEntries(
    Object.entries(meta.inputs ?? {}).flatMap(([input, spec]) => (spec.default === undefined ? [] : [[input, String(spec.default)]])),
  );
}

/**
 * The environment the runner gives `node dist/<name>/index.js`: `INPUT_*` variables (the
 * action.yml defaults, then `inputs`) and a `GITHUB_OUTPUT`, `GITHUB_STATE` and
 * `GITHUB_STEP_SUMMARY` file in `dir` (created empty).
 */
export function actionEnv(bundle: string, inputs: Record<string, string>, dir: string): Record<string, string> {
  const all = { ...inputDefaults(bundle), ...inputs };
  const files = { GITHUB_OUTPUT: join(dir, 'output'), GITHUB_STEP_SUMMARY: join(dir, 'summary'), GITHUB_STATE: join(dir, 'state') };
  for (const file of Object.values(files)) writeFileSync(file, '');
  const inputEnv = Object.fromEntries(Object.entries(all).map(([k, v]) => [`INPUT_${k.replace(/ /g, '_').toUpperCase()}`, v]));
  return { PATH: process.env.PATH ?? '', ...files, RUNNER_TEMP: dir, ...inputEnv };
}

/** Runs a bundled action as the runner does (see `actionEnv`), with whatever else `env` adds. */
export async function runAction(bundle: string, inputs: Record<string, string>, env: Record<string, string> = {}): Promise<ActionRun> {
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-action-'));
  try {
    const base = actionEnv(bundle, inputs, dir);
    const result = await runToEnd(process.execPath, [bundle], { cwd: dir, env: { ...base, ...env } });
    return {
      ...result,
      outputs: parseOutputFile(readFileSync(base.GITHUB_OUTPUT!, 'utf8')),
      state: parseOutputFile(readFileSync(base.GITHUB_STATE!, 'utf8')),
      summary: readFileSync(base.GITHUB_STEP_SUMMARY!, 'utf8'),
    };
  } finally {
    // Each run's workspace is the test's own: leave nothing behind in the temp folder.
    rmSync(dir, { recursive: true, force: true });
  }
}

export class RecordingCore implements ActionsCore {
  readonly outputs: Record<string, string> = {};
  readonly secrets: string[] = [];
  readonly messages: { kind: 'info' | 'notice' | 'warning' | 'debug' | 'failed'; text: string }[] = [];
  readonly summaries: string[] = [];

  constructor(private readonly inputs: Record<string, string>) {}

  getInput = (name: string) => this.inputs[name] ?? '';
  setOutput = (name: string, value: unknown) => void (this.outputs[name] = String(value));
  setSecret = (secret: string) => void this.secrets.push(secret);
  setFailed = (message: string | Error) => void this.messages.push({ kind: 'failed', text: String(message) });
  info = (text: string) => void this.messages.push({ kind: 'info', text });
  notice = (text: string | Error) => void this.messages.push({ kind: 'notice', text: String(text) });
  warning = (text: string | Error) => void this.messages.push({ kind: 'warning', text: String(text) });
  debug = (text: string) => void this.messages.push({ kind: 'debug', text });
  summary = (() => {
    let buffer = '';
    const summary = {
      addRaw: (text: string, eol?: boolean) => {
        buffer += text + (eol ? '\n' : '');
        return summary;
      },
      write: async () => {
        this.summaries.push(buffer);
        buffer = '';
        return summary;
      },
    };
    return summary as unknown as ActionsCore['summary'];
  })();

  of(kind: RecordingCore['messages'][number]['kind']): string[] {
    return this.messages.filter((m) => m.kind === kind).map((m) => m.text);
  }
}
