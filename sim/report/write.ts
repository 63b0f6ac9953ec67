// Writing a run's report to disk: report.json with sorted keys (so the same run gives the same
// bytes, and two runs diff cleanly) and report.html. Each file is written to a temporary name,
// flushed, then renamed over the final name: a crash leaves the old file or the new, never half.
import { open, mkdir, rename, rm } from 'node:fs/promises';
import { resolve } from 'node:path';
import { renderReportHtml } from './html.ts';
import type { Report } from './types.ts';

const INDENT = '  ';
let tempCounter = 0;

function isPrimitive(value: unknown): boolean {
  return value === null || (typeof value !== 'object' && typeof value !== 'function');
}

function serialise(value: unknown, depth: number, seen: Set<object>): string | undefined {
  if (value !== null && typeof value === 'object' && typeof (value as { toJSON?: unknown }).toJSON === 'function') {
    value = (value as { toJSON(): unknown }).toJSON();
  }
  if (value === undefined || typeof value === 'function' || typeof value === 'symbol') return undefined;
  if (typeof value === 'bigint') throw new TypeError('stableJson: a BigInt has no JSON form');
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (seen.has(value)) throw new TypeError('stableJson: the value is circular');
  seen.add(value);
  const inner = INDENT.repeat(depth + 1);
  const outer = INDENT.repeat(depth);
  let text: string;
  if (Array.isArray(value)) {
    const items = value.map((v) => serialise(v, depth + 1, seen) ?? 'null');
    // Arrays of numbers and strings (the time series) stay on one line: one sample per line would
    // make the file ten times longer and no easier to read. So do arrays of such arrays (a node's
    // or a pod's timeline, `[[0, "created"], [12, "scheduled", "n1"]]`): one line per thing.
    if (items.length === 0) text = '[]';
    else if (value.every(isPrimitive) || value.every((v) => Array.isArray(v) && v.every(isPrimitive))) text = `[${items.join(', ')}]`;
    else text = `[\n${items.map((i) => inner + i).join(',\n')}\n${outer}]`;
  } else {
    const fields: string[] = [];
    for (const key of Object.keys(value).sort()) {
      const v = serialise((value as Record<string, unknown>)[key], depth + 1, seen);
      if (v !== undefined) fields.push(`${inner}${JSON.stringify(key)}: ${v}`);
    }
    text = fields.length === 0 ? '{}' : `{\n${fields.join(',\n')}\n${outer}}`;
  }
  seen.delete(value);
  return text;
}

/**
 * JSON with every object's keys in sorted order (arrays keep theirs), indented two spaces, arrays of
 * primitives on one line. Parses back to what JSON.stringify would give; no trailing newline.
 */
export function stableJson(value: unknown): string {
  return serialise(value, 0, new Set()) ?? 'null';
}

/** Writes `data` to a temporary file beside `path`, flushes it, then renames it over `path`. */
async function writeAtomically(path: string, data: string): Promise<void> {
  const temp = `${path}.${process.pid}.${++tempCounter}.tmp`;
  try {
    const file = await open(temp, 'w');
    try {
      await file.writeFile(data, 'utf8');
      await file.sync();
    } finally {
      await file.close();
    }
    await rename(temp, path);
  } catch (e) {
    await rm(temp, { force: true });
    throw e;
  }
}

/** Creates `dir` if needed and writes report.json and report.html into it; returns their absolute paths. */
export async function writeReport(dir: string, report: Report): Promise<{ json: string; html: string }> {
  await mkdir(dir, { recursive: true });
  const json = resolve(dir, 'report.json');
  const html = resolve(dir, 'report.html');
  await writeAtomically(json, `${stableJson(report)}\n`);
  await writeAtomically(html, renderReportHtml(report));
  return { json, html };
}
