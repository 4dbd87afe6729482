import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import ajvDraft04 from 'ajv-draft-04';

/**
 * The published SARIF 2.1.0 JSON schema (2.1.0-rtm.5, the schema the OASIS standard was cut from),
 * as Microsoft's SARIF SDK ships it in @microsoft/jest-sarif. It is a draft-04 schema, so it is
 * compiled with ajv's draft-04 build.
 */
const SCHEMA_FILE = createRequire(import.meta.url).resolve('@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json');

// A CommonJS module: under NodeNext its default import is `module.exports`, whose `default` is the class.
const Ajv = ajvDraft04.default;
const ajv = new Ajv({ allErrors: true, strict: false, unicodeRegExp: false });
// The schema's `language` pattern is not valid as a unicode regular expression; without the `u`
// flag it is read as its authors meant. Like code scanning, which only warns on bad URIs, URI
// formats are not judged here; date-times are.
ajv.addFormat('uri', true);
ajv.addFormat('uri-reference', true);
ajv.addFormat('date-time', /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:\d\d)$/i);
const validate = ajv.compile(JSON.parse(readFileSync(SCHEMA_FILE, 'utf8')) as object);

/** The schema errors of a SARIF log, as short lines; empty when it is valid. */
export function sarifSchemaErrors(log: unknown): string[] {
  if (validate(log)) return [];
  return (validate.errors ?? []).slice(0, 10).map((e) => `${e.instancePath || '/'} ${e.message ?? ''}`);
}
