// `--help` of a component, from its table: one section per group of the seed, in table order,
// each option with its kind, help and default, and what a simulator makes of it.
import type { OptionSpec, OptionTable } from './table.ts';

const WIDTH = 100;

function defaultOf<T>(s: OptionSpec<T>): string {
  if (s.defaultText !== undefined) return s.defaultText;
  if (s.default === undefined) return '';
  return (s.kind.format as (v: unknown) => string)(s.default);
}

function wrap(text: string, indent: number): string {
  const words = text.split(' ');
  const lines: string[] = [];
  let line = '';
  for (const w of words) {
    if (line && indent + line.length + 1 + w.length > WIDTH) {
      lines.push(line);
      line = w;
    } else line = line ? `${line} ${w}` : w;
  }
  if (line) lines.push(line);
  return lines.join(`\n${' '.repeat(indent)}`);
}

function entry<T>(s: OptionSpec<T>, field: boolean): string {
  const flag = field ? `${s.name} ${s.kind.name}` : `${s.short ? `-${s.short}, ` : '    '}--${s.name}${s.kind.bare === 'true' && s.kind.name === 'bool' ? '' : ` ${s.kind.name}`}`;
  const notes: string[] = [];
  const d = defaultOf(s);
  if (d !== '' && !(s.kind.name === 'bool' && d === 'false')) notes.push(`default ${d}`);
  if (s.inert) notes.push(`no effect in the simulator: ${s.inert}`);
  if (s.deprecated) notes.push(`DEPRECATED: ${s.deprecated}`);
  const text = `${s.help}${notes.length ? ` (${notes.join('; ')})` : ''}`;
  return `  ${flag}\n        ${wrap(text, 8)}`;
}

/** The help text: usage, then each group's options. */
export function helpText<T>(command: string, summary: string, table: OptionTable<T>): string {
  return `${wrap(summary, 0)}\n\nUsage:\n  ${command} [flags]\n\n${sections(table, false)}\n`;
}

/** The fields of a configuration file a table reads, in its groups. */
export function fieldsHelp<T>(summary: string, table: OptionTable<T>): string {
  return `${wrap(summary, 0)}\n\n${sections(table, true)}\n`;
}

function sections<T>(table: OptionTable<T>, fields: boolean): string {
  const groups = new Map<string, OptionSpec<T>[]>();
  for (const s of table.specs) {
    let list = groups.get(s.group);
    if (!list) groups.set(s.group, (list = []));
    list.push(s);
  }
  return [...groups].map(([group, specs]) => `${group}:\n\n${specs.map((s) => entry(s, fields)).join('\n')}`).join('\n\n');
}
