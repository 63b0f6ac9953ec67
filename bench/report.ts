// A suite's results: one row per operation, orchsim against its baseline from the same run,
// printed as a table and written as JSON to bench/results/<suite>.json.
import { mkdirSync, writeFileSync } from 'node:fs';
import type { Measurement } from './measure.ts';

export interface Row {
  name: string;
  opsPerSec: number;
  baselineOpsPerSec: number;
  /** orchsim / baseline: 1 is as fast as the baseline, 0.25 is four times slower. */
  ratio: number;
  p50Ms?: number;
  p99Ms?: number;
  baselineP50Ms?: number;
  baselineP99Ms?: number;
}

export interface SuiteResult {
  suite: string;
  seed: number;
  /** What each row measures, and what its baseline is. */
  notes: string[];
  rows: Row[];
}

/** What bench/run.ts prints and writes for one suite. */
export interface SuiteOutput {
  json: { suite: string };
  table: string;
}

/** The common form: a suite of rows set against their baselines. */
export function tabulate(result: SuiteResult): SuiteOutput {
  return { json: result, table: formatTable(result.rows) };
}

export function row(name: string, measured: Measurement, baseline: Measurement): Row {
  return {
    name,
    opsPerSec: measured.opsPerSec,
    baselineOpsPerSec: baseline.opsPerSec,
    ratio: measured.opsPerSec / baseline.opsPerSec,
    ...(measured.p50Ms !== undefined ? { p50Ms: measured.p50Ms, p99Ms: measured.p99Ms } : {}),
    ...(baseline.p50Ms !== undefined ? { baselineP50Ms: baseline.p50Ms, baselineP99Ms: baseline.p99Ms } : {}),
  };
}

const COLUMNS = ['name', 'ops/s', 'baseline ops/s', 'ratio', 'p50 ms', 'p99 ms'];

function cells(r: Row): string[] {
  const ms = (v: number | undefined) => (v === undefined ? '-' : v.toFixed(3));
  return [r.name, r.opsPerSec.toFixed(0), r.baselineOpsPerSec.toFixed(0), r.ratio.toFixed(3), ms(r.p50Ms), ms(r.p99Ms)];
}

export function formatTable(rows: Row[]): string {
  const lines = [COLUMNS, ...rows.map(cells)];
  const widths = COLUMNS.map((_, i) => Math.max(...lines.map((l) => l[i].length)));
  const pad = (l: string[]) => l.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  return [pad(lines[0]), widths.map((w) => '-'.repeat(w)).join('  '), ...lines.slice(1).map(pad)].join('\n');
}

export function writeResult(dir: URL, result: { suite: string }): string {
  mkdirSync(dir, { recursive: true });
  const file = new URL(`${result.suite}.json`, dir);
  writeFileSync(file, JSON.stringify(result, null, 2) + '\n');
  return file.pathname;
}
