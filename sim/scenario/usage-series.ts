// `usage: { kind: series, file: load.csv, ... }`: a workload's use replayed from a CSV file, read
// and checked when the scenario loads, its points written into each pod's usage model (the node
// agent's `series` curve, actors/nodeagent/usage-series.ts). The file, relative to the scenario's
// directory, has a header row naming `time` first and then `cpu`, `memory` or both; each row a time
// (a duration such as `1h30m`, or seconds from the run's start such as `5400`), strictly
// increasing, and each resource's use as a fraction of the request. A mistake names the file, the
// line and the column.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseDuration } from '../../actors/api/duration.ts';
import type { UsageModel, UsageResource } from '../../actors/nodeagent/usage-model.ts';
import { DAY_MS, INTERPOLATIONS, type SeriesCurve } from '../../actors/nodeagent/usage-series.ts';
import { VIRTUAL_EPOCH_MS } from '../virtual-clock.ts';
import { ScenarioError, type Field } from './field.ts';
import { boolean, oneOf, optional, string } from './schema.ts';

export const SERIES_USAGE_FIELDS = ['kind', 'file', 'interpolation', 'repeat', 'factor', 'spread'];
const COLUMNS = ['cpu', 'memory'] as const;
const SECONDS = /^\d+(\.\d+)?$/;

/**
 * The model of a `kind: series` usage: one series curve per column the file has. `factor` and
 * `spread` are left for the agent's rules to check (usage-model.ts), as in any model.
 */
export function seriesUsage(f: Field, dir: string): UsageModel {
  f.mapping(SERIES_USAGE_FIELDS, 'a mapping such as { kind: series, file: load.csv, interpolation: linear, repeat: true }');
  const file = string(f.child('file'));
  const interpolation = optional(f.child('interpolation'), (i) => oneOf(i, INTERPOLATIONS), 'step');
  const repeat = optional(f.child('repeat'), boolean, false);
  let text: string;
  try {
    text = readFileSync(resolve(dir, file), 'utf8');
  } catch (e) {
    return f.child('file').fail(`cannot read the series file (${(e as Error).message})`);
  }
  const columns = readCsv(text, file, repeat);
  const start = new Date(VIRTUAL_EPOCH_MS).toISOString();
  // `spread` as any model has it, for workloads.ts to name the group of.
  const model: UsageModel = f.child('spread').present ? { spread: f.child('spread').value as UsageModel['spread'] } : {};
  for (const [resource, points] of columns)
    model[resource] = { kind: 'series', start, points, interpolation, repeat, ...(f.child('factor').present ? { factor: f.child('factor').value as SeriesCurve['factor'] } : {}) };
  return model;
}

/** Each resource column's points [ms after the start, fraction], checked cell by cell. */
function readCsv(text: string, file: string, repeat: boolean): Map<UsageResource, [number, number][]> {
  const lines = text.split(/\r?\n/);
  const fail = (line: number, message: string): never => { throw new ScenarioError(file, '', message, { line }); };
  const headerAt = lines.findIndex((l) => l.trim() !== '');
  if (headerAt < 0) fail(1, 'is empty: a series needs a header row (time,cpu,memory) and at least one row');
  const header = lines[headerAt]!.split(',').map((c) => c.trim());
  if (header[0] !== 'time') fail(headerAt + 1, `column 1: the header's first column must be time, got ${JSON.stringify(header[0])}`);
  header.slice(1).forEach((name, i) => {
    if (!(COLUMNS as readonly string[]).includes(name) || header.indexOf(name) !== i + 1)
      fail(headerAt + 1, `column ${i + 2}: must be cpu or memory, each at most once, got ${JSON.stringify(name)}`);
  });
  if (header.length < 2) fail(headerAt + 1, 'the header must name cpu, memory or both after time');
  const resources = header.slice(1) as UsageResource[];
  const out = new Map<UsageResource, [number, number][]>(resources.map((r) => [r, []]));
  let previous = -1;
  for (let n = headerAt + 1; n < lines.length; n++) {
    if (lines[n]!.trim() === '') continue;
    const cells = lines[n]!.split(',').map((c) => c.trim());
    if (cells.length !== header.length) fail(n + 1, `has ${cells.length} columns; the header has ${header.length} (${header.join(',')})`);
    const t = timeMs(cells[0]!);
    if (t === undefined) fail(n + 1, `column 1 (time): must be a duration such as 1h30m or seconds from the start such as 5400, got ${JSON.stringify(cells[0])}`);
    if (t! <= previous) fail(n + 1, `column 1 (time): must be after the row before's (${previous / 1000}s), got ${JSON.stringify(cells[0])}`);
    if (repeat && t! >= DAY_MS) fail(n + 1, `column 1 (time): must be within the first day (below 24h) when the series repeats, got ${JSON.stringify(cells[0])}`);
    previous = t!;
    resources.forEach((r, i) => {
      const cell = cells[i + 1]!;
      const value = cell === '' ? NaN : Number(cell);
      if (!(value >= 0 && value <= 100)) fail(n + 1, `column ${i + 2} (${r}): must be a fraction of the request from 0 to 100, got ${JSON.stringify(cell)}`);
      out.get(r)!.push([t!, value]);
    });
  }
  if (previous < 0) fail(headerAt + 1, 'has a header and no rows: a series needs at least one row');
  return out;
}

function timeMs(cell: string): number | undefined {
  if (SECONDS.test(cell)) return Math.round(Number(cell) * 1000);
  try {
    return parseDuration(cell);
  } catch {
    return undefined;
  }
}
