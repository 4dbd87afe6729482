import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Ajv, type ValidateFunction } from 'ajv';

// GitHub's published REST description (devDependency @octokit/openapi), read once; never from server code.
const GENERATED = join(dirname(createRequire(import.meta.url).resolve('@octokit/openapi/package.json')), 'generated');

type Doc = {
  paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
  components: Record<string, Record<string, unknown>>;
  'x-webhooks': Record<string, { post: { requestBody: { content: Record<string, { schema: unknown }> } } }>;
};

/**
 * OpenAPI 3.0's `nullable` next to `$ref`, `allOf` or `anyOf` (no `type`), which Ajv refuses, as
 * the JSON-schema `anyOf` with null it means; and next to an `enum`, as null among its values.
 */
function nullables(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(nullables);
  if (!node || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(node)) out[k] = nullables(v);
  // `nullable` with an `enum` lets null through too (GitHub's examples answer `dismissed_reason: null`).
  if (out.nullable === true && Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null];
  if (out.nullable === true && out.type === undefined) {
    const { nullable: _, ...rest } = out;
    return { anyOf: [rest, { type: 'null' }] };
  }
  return out;
}

/**
 * The formats GitHub's description uses that a fake can get wrong: a time that is not ISO 8601
 * (`"None"` where GitHub sends null) or an address that is not one. The others are not checked.
 */
const FORMATS = {
  'date-time': (value: string) => /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/.test(value) && !Number.isNaN(Date.parse(value)),
  date: (value: string) => /^\d{4}-\d\d-\d\d$/.test(value) && !Number.isNaN(Date.parse(value)),
  uri: (value: string) => URL.canParse(value),
  'uri-template': true,
  email: true,
  int64: true,
} as const;

/** GitHub's published description of api.github.com, to check what a fake answers against it. */
export class GitHubDescription {
  private readonly doc: Doc;
  private readonly ajv: Ajv;

  constructor() {
    this.doc = JSON.parse(readFileSync(join(GENERATED, 'api.github.com.json'), 'utf8')) as Doc;
    // OpenAPI 3.0 schemas: `nullable` is understood by Ajv; examples and x-github annotations are not checked.
    this.ajv = new Ajv({ strict: false, allErrors: true, formats: FORMATS });
    this.ajv.addSchema({ $id: 'https://api.github.com/openapi.json', components: { schemas: nullables(this.doc.components.schemas) } });
  }

  /** Whether the description documents this answer at all (a 204 has no body to check). */
  documents(path: string, method: string, status: string): boolean {
    return this.doc.paths[path]?.[method]?.responses[status] !== undefined;
  }

  /** A validator of a documented answer's JSON body; `$ref`s point into the registered description. */
  validator(path: string, method: string, status: string): ValidateFunction {
    let response = this.doc.paths[path]?.[method]?.responses[status] as { $ref?: string; content?: Record<string, { schema: unknown }> } | undefined;
    assert.ok(response, `${method.toUpperCase()} ${path} documents no ${status}`);
    if (response.$ref) response = this.doc.components.responses![response.$ref.split('/').pop()!] as typeof response;
    const schema = response!.content?.['application/json']?.schema;
    assert.ok(schema, `${method.toUpperCase()} ${path} ${status} has no JSON schema`);
    return this.ajv.compile(JSON.parse(JSON.stringify(nullables(schema)).replaceAll('"#/components/', '"https://api.github.com/openapi.json#/components/')) as object);
  }

  /** A validator of a webhook delivery's payload (`x-webhooks`, e.g. `github-app-authorization-revoked`). */
  webhookValidator(name: string): ValidateFunction {
    const schema = this.doc['x-webhooks'][name]?.post.requestBody.content['application/json']?.schema;
    assert.ok(schema, `the description documents no webhook ${name}`);
    return this.ajv.compile(JSON.parse(JSON.stringify(nullables(schema)).replaceAll('"#/components/', '"https://api.github.com/openapi.json#/components/')) as object);
  }

  assertValid(validate: ValidateFunction, body: unknown, what: string): void {
    assert.ok(validate(body), `${what}: ${this.ajv.errorsText(validate.errors)}`);
  }
}
