import { YAML_BOOLEAN_WORDS, yamlBoolean } from '../../server/yaml-boolean.js';
import type { ActionsCore } from './core.js';

/** A problem with the step's own inputs or environment; the message says which input. */
export class InputError extends Error {
  override readonly name = 'InputError';
}

/** The trimmed input, or undefined when empty. */
export function optionalInput(core: ActionsCore, name: string): string | undefined {
  const value = core.getInput(name).trim();
  return value === '' ? undefined : value;
}

export function requiredInput(core: ActionsCore, name: string): string {
  const value = optionalInput(core, name);
  if (value === undefined) throw new InputError(`input "${name}" is required`);
  return value;
}

/**
 * A boolean input, read the same way in every action: the YAML 1.2 core-schema words
 * (`true`/`True`/`TRUE`, `false`/`False`/`FALSE`), as `core.getBooleanInput` reads them. Empty
 * gives `fallback` (the action.yml default, or "leave the field out"); anything else is an
 * `InputError` naming the input. The value itself is not repeated: it may be a secret by mistake.
 */
export function booleanInput(core: ActionsCore, name: string, fallback: boolean): boolean;
export function booleanInput(core: ActionsCore, name: string): boolean | undefined;
export function booleanInput(core: ActionsCore, name: string, fallback?: boolean): boolean | undefined {
  const value = optionalInput(core, name);
  if (value === undefined) return fallback;
  const parsed = yamlBoolean(value);
  if (parsed === undefined) throw new InputError(`input "${name}" must be true or false (${YAML_BOOLEAN_WORDS})`);
  return parsed;
}

/** A non-negative whole number, or undefined when empty. */
export function integerInput(core: ActionsCore, name: string): number | undefined {
  const value = optionalInput(core, name);
  if (value === undefined) return undefined;
  if (!/^[0-9]{1,15}$/.test(value)) throw new InputError(`input "${name}" must be a whole number`);
  return Number(value);
}

/** An http(s) base URL input, normalised to end with one slash so relative paths join under it. */
export function baseUrl(name: string, value: string): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new InputError(`input "${name}" must be an http(s) URL`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new InputError(`input "${name}" must be an http(s) URL`);
  if (!url.pathname.endsWith('/')) url.pathname += '/';
  return url;
}
