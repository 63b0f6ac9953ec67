// Secrets: Opaque by default, stringData written into data, immutable once `immutable` is set.
// printSecret.
import type { KObject } from '../../../api/types.ts';
import { fill, zero } from '../defaults-fields.ts';
import { defineKind } from '../kind.ts';
import { age, ageColumn, column, fields, nameColumn, nameOf, type Printer, text } from '../tables-format.ts';
import { immutableData, validateSecretData } from './config-data.ts';

const SECRET = [zero('type', 'Opaque')];

/**
 * A Secret's `stringData` is write-only, as the real server converts it on every write: each
 * string value goes into `data` (base64 of its UTF-8), over a key `data` already has, and
 * `stringData` is never stored or returned. A value that is not a string stays for validation to refuse.
 */
function defaults(o: KObject): void {
  fill(o, SECRET);
  const stringData = (o as { stringData?: unknown }).stringData;
  if (stringData === null || typeof stringData !== 'object' || Array.isArray(stringData)) return;
  const rest: Record<string, unknown> = {};
  const data = { ...((o as { data?: Record<string, string> }).data ?? {}) };
  for (const [key, value] of Object.entries(stringData)) {
    if (typeof value === 'string') data[key] = Buffer.from(value, 'utf8').toString('base64');
    else rest[key] = value;
  }
  (o as { data?: Record<string, string> }).data = data;
  if (Object.keys(rest).length) (o as { stringData?: unknown }).stringData = rest;
  else delete (o as { stringData?: unknown }).stringData;
}

const printer: Printer = {
  columns: [
    nameColumn,
    column('Type', 'Used to facilitate programmatic handling of secret data.'),
    column('Data', 'Data contains the secret data.'),
    ageColumn,
  ],
  cells(o, nowMs) {
    // stringData merges into data on write, so a key in both counts once.
    const keys = new Set([...Object.keys(fields(o.data)), ...Object.keys(fields(o.stringData))]);
    return [nameOf(o), text(o.type), keys.size, age(o, nowMs)];
  },
};

export const secret = defineKind({ nameRule: 'subdomain', hasStatus: false, hasGeneration: false, defaults, printer, validate: validateSecretData, validateUpdate: immutableData });
