/**
 * JSON text read one way everywhere: a value, or undefined when the text is not JSON. Never
 * `JSON.parse`'s own message: it quotes the text, which may hold a secret.
 */
export function jsonValue(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** The text as a JSON object, or undefined when it is not one. */
export function jsonObject(text: string): Record<string, unknown> | undefined {
  const value = jsonValue(text);
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}
