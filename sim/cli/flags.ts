// Command-line flags in the components' style: --name=value or --name value; booleans as
// --flag or --flag=false; lists comma-separated. Declared as data, parsed once, with errors
// that name the flag and say what it wants.
import { parseDuration } from '../../actors/api/duration.ts';

export type FlagType = 'string' | 'int' | 'bool' | 'duration' | 'strings';

export interface FlagSpec<T> {
  name: string;
  type: FlagType;
  help: string;
  /** Writes the parsed value into the options being built. */
  set(into: T, value: string | number | boolean | string[]): void;
}

export class UsageError extends Error {
  override readonly name = 'UsageError';
}

const BOOL_TRUE = new Set(['1', 't', 'T', 'TRUE', 'true', 'True']);
const BOOL_FALSE = new Set(['0', 'f', 'F', 'FALSE', 'false', 'False']);

function convert(spec: FlagSpec<unknown>, raw: string): string | number | boolean | string[] {
  switch (spec.type) {
    case 'string':
      return raw;
    case 'int': {
      if (!/^-?\d+$/.test(raw)) throw new UsageError(`invalid argument ${JSON.stringify(raw)} for --${spec.name}: must be an integer`);
      return Number(raw);
    }
    case 'bool':
      if (BOOL_TRUE.has(raw)) return true;
      if (BOOL_FALSE.has(raw)) return false;
      throw new UsageError(`invalid argument ${JSON.stringify(raw)} for --${spec.name}: must be true or false`);
    case 'duration':
      try {
        return parseDuration(raw);
      } catch (e) {
        throw new UsageError(`invalid argument ${JSON.stringify(raw)} for --${spec.name}: ${(e as Error).message}`);
      }
    case 'strings':
      return raw === '' ? [] : raw.split(',').map((s) => s.trim());
  }
}

/** Parses argv against the specs; returns the positional arguments. */
export function parseFlags<T>(argv: string[], specs: FlagSpec<T>[], into: T): string[] {
  const byName = new Map(specs.map((s) => [s.name, s]));
  const positional: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (!arg.startsWith('-') || arg === '-') {
      positional.push(arg);
      continue;
    }
    const body = arg.replace(/^--?/, '');
    const eq = body.indexOf('=');
    const name = eq >= 0 ? body.slice(0, eq) : body;
    const spec = byName.get(name);
    if (!spec) throw new UsageError(`unknown flag: --${name}`);
    let raw: string;
    if (eq >= 0) raw = body.slice(eq + 1);
    else if (spec.type === 'bool') raw = 'true';
    else if (i + 1 < argv.length) raw = argv[++i];
    else throw new UsageError(`flag needs an argument: --${name}`);
    spec.set(into, convert(spec as FlagSpec<unknown>, raw));
  }
  return positional;
}

export function flagHelp(specs: FlagSpec<unknown>[]): string {
  const width = Math.max(...specs.map((s) => s.name.length + s.type.length + 4));
  return specs.map((s) => `  --${`${s.name} ${s.type === 'bool' ? '' : s.type}`.padEnd(width)}  ${s.help}`).join('\n');
}
