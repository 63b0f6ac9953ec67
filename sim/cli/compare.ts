// `orchsim compare A B [--out DIR]`: two runs' reports side by side, on the terminal and as
// compare.html, the rows that differ marked. A and B are report.json files, or the --out
// directories of `orchsim run` that hold them. Exits 0 when they agree, 1 when they differ
// (as diff does), 2 on bad input.
import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { helpText } from '../../actors/api/options/help.ts';
import { bool, string } from '../../actors/api/options/kinds.ts';
import { OptionError, OptionTable, type OptionSpec } from '../../actors/api/options/table.ts';
import { compareReports, renderComparison } from '../report/compare.ts';
import { renderComparisonHtml } from '../report/compare-html.ts';
import type { Report } from '../report/types.ts';

interface CompareOptions {
  out: string;
}

const GROUP = 'Options';
const COMPARE_TABLE = new OptionTable<CompareOptions>('orchsim compare', [
  { name: 'out', kind: string, key: 'out', default: 'orchsim-compare', group: GROUP, help: 'directory for compare.html' },
  { name: 'help', short: 'h', kind: bool, default: false, group: GROUP, help: 'this help' },
] as OptionSpec<CompareOptions>[]);

export function compareHelp(): string {
  return helpText('orchsim compare A B', 'Puts two reports side by side: their figures, each zone\'s outcome, and the first entry where each node\'s and pod\'s '
    + 'timelines part, the rows that differ marked (≠) and highlighted in compare.html. A and B are report.json files or the directories `orchsim run --out` '
    + 'wrote them to. Exits 0 when the two agree, 1 when they differ.', COMPARE_TABLE);
}

export async function compareCommand(argv: string[], log: (line: string) => void = console.log): Promise<number> {
  const { options, positional } = COMPARE_TABLE.parse(argv);
  if (positional.length !== 2) throw new OptionError(`compare takes two reports (report.json files or run directories), got ${positional.length}\n\n${compareHelp()}`);
  const [a, b] = await Promise.all(positional.map(readReport));
  const comparison = compareReports(a!.report, b!.report, { a: a!.path, b: b!.path });
  log(renderComparison(comparison));
  const dir = resolve(options.out);
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'compare.html'), renderComparisonHtml(comparison));
  log(`\ncomparison: ${join(dir, 'compare.html')}`);
  return comparison.changes === 0 ? 0 : 1;
}

/** A report.json, or the one in a run's directory; a clear error for anything else. */
async function readReport(arg: string): Promise<{ path: string; report: Report }> {
  let path = resolve(arg);
  const info = await stat(path).catch(() => undefined);
  if (!info) throw new OptionError(`${arg}: no such file or directory`);
  if (info.isDirectory()) path = join(path, 'report.json');
  const text = await readFile(path, 'utf8').catch(() => {
    throw new OptionError(`${arg}: no report.json in this directory (orchsim run --out DIR writes one)`);
  });
  let report: unknown;
  try {
    report = JSON.parse(text);
  } catch (e) {
    throw new OptionError(`${path}: not JSON (${(e as Error).message})`);
  }
  const r = report as Partial<Report> | null;
  if (!r || typeof r !== 'object' || r.version !== 1 || !r.summary || !r.series || !r.scenario)
    throw new OptionError(`${path}: not an orchsim report (report.json of format version 1, as orchsim run writes)`);
  return { path, report: r as Report };
}
