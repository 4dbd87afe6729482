/** A JSON answer from a loopback server. */
export interface JsonAnswer<T = Record<string, unknown>> {
  readonly status: number;
  readonly headers: Headers;
  readonly body: T;
  readonly text: string;
}

/** One HTTP call with fetch; `json` is serialised, `raw` is sent as is. */
export async function call<T = Record<string, unknown>>(
  url: string,
  options: { method?: string; token?: string; json?: unknown; raw?: string | Buffer; headers?: Record<string, string> } = {},
): Promise<JsonAnswer<T>> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token !== undefined) headers.authorization = `Bearer ${options.token}`;
  let body: string | Buffer | undefined;
  if (options.json !== undefined) {
    headers['content-type'] ??= 'application/json';
    body = JSON.stringify(options.json);
  } else if (options.raw !== undefined) {
    headers['content-type'] ??= 'application/json';
    body = options.raw;
  }
  const response = await fetch(url, { method: options.method ?? (body === undefined ? 'GET' : 'POST'), headers, body });
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    throw new Error(`not JSON (status ${response.status}): ${text.slice(0, 200)}`);
  }
  return { status: response.status, headers: response.headers, body: parsed as T, text };
}
