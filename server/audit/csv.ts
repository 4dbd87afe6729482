import { stringify } from 'csv-stringify/sync';
import { AUDIT_FIELDS, type TokenAuditRecord } from './record.js';

/**
 * Records as CSV (RFC 4180: a header row, CRLF line ends, fields quoted when they need it), one
 * column per field in the documented order. `null` is an empty cell; an object or a list is its
 * JSON text. Values are written as they are, never rewritten for a spreadsheet (a `hashed_token`
 * may start with `+`, and must stay searchable in GitHub's audit log as it is).
 */
export function auditCsv(records: readonly TokenAuditRecord[]): string {
  const rows = records.map((record) => AUDIT_FIELDS.map((field) => cell(record[field])));
  return stringify(rows, { header: true, columns: [...AUDIT_FIELDS], record_delimiter: 'windows' });
}

function cell(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}
