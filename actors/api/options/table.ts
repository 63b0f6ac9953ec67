// One table per component: every option of seed 001 with its kind, default, rule, help group and
// whether it is deprecated or without effect in a simulator. The table alone parses the command
// line, reads a scenario's or file's values, fills in defaults, checks rules and writes help, so
// no option is handled in two places. Options that shape behaviour name the field of the
// component's typed options they set (`key`); the rest are accepted, checked and kept in `extra`.
import type { Kind } from './kinds.ts';

export interface OptionSpec<T> {
  /** The flag, without dashes: `node-monitor-grace-period`. */
  name: string;
  /** A one-letter alias: `v` for `-v`. */
  short?: string;
  kind: Kind<never> | Kind<unknown>;
  /** The typed options' field it sets. */
  key?: keyof T & string;
  /** Absent: the option has no default ("none" in the seed). */
  default?: unknown;
  /** Shown in help instead of the formatted default (`host default interface`). */
  defaultText?: string;
  /** The help section: the seed's grouping. */
  group: string;
  help: string;
  /** What a value must be, or undefined when it is fine. */
  rule?: (value: never) => string | undefined;
  /** Accepted with a warning saying this. */
  deprecated?: string;
  /** For an option some of whose values are deprecated: the warning a given value earns, or undefined. */
  deprecatedValue?: (value: never) => string | undefined;
  /** Accepted and checked, with no effect in a simulator: why. */
  inert?: string;
}

/** A rule across options: names the options it reads, says what is wrong or undefined. */
export interface CrossRule {
  names: string[];
  check(value: (name: string) => unknown, given: (name: string) => boolean): string | undefined;
}

export class OptionError extends RangeError {
  override readonly name = 'OptionError';
}

export interface Resolved<T> {
  options: T;
  /** Values of the options without a typed field, by flag name (defaults included). */
  extra: Record<string, unknown>;
  /** Flags given explicitly. */
  given: Set<string>;
  /** Deprecation warnings, one per deprecated option given. */
  warnings: string[];
}

/** Go's flag normalisation in the components: `--node_monitor_period` is `--node-monitor-period`. */
const normalise = (name: string) => name.replace(/_/g, '-');
const show = (v: unknown) => (typeof v === 'string' ? JSON.stringify(v) : JSON.stringify(v) ?? String(v));

export class OptionTable<T> {
  readonly #byName = new Map<string, OptionSpec<T>>();
  readonly #byShort = new Map<string, OptionSpec<T>>();
  readonly #byKey = new Map<string, OptionSpec<T>>();

  constructor(
    /** As messages name it: `controller manager`. */
    readonly component: string,
    readonly specs: readonly OptionSpec<T>[],
    readonly crossRules: readonly CrossRule[] = [],
  ) {
    for (const s of specs) {
      if (this.#byName.has(s.name)) throw new Error(`${component}: option --${s.name} is in the table twice`);
      this.#byName.set(s.name, s);
      if (s.short) this.#byShort.set(s.short, s);
      if (s.key) {
        if (this.#byKey.has(s.key)) throw new Error(`${component}: field ${s.key} is set by --${this.#byKey.get(s.key)!.name} and --${s.name}`);
        this.#byKey.set(s.key, s);
      }
    }
  }

  /** Whether an option sets the typed field `key`. */
  hasKey(key: string): boolean {
    return this.#byKey.has(key);
  }

  spec(name: string): OptionSpec<T> | undefined {
    return this.#byName.get(normalise(name));
  }

  /** The typed defaults: every keyed option's default. */
  defaults(): T {
    const out: Record<string, unknown> = {};
    for (const s of this.specs) if (s.key && s.default !== undefined) out[s.key] = s.default;
    return out as T;
  }

  /**
   * Reads a command line: `--name=value`, `--name value`, `-v=3`, `-v 3`, booleans bare; a
   * repeatable option given twice adds to itself. Returns the values by flag name and the
   * arguments that are not flags.
   */
  parseArgs(argv: readonly string[]): { values: Map<string, unknown>; positional: string[] } {
    const values = new Map<string, unknown>();
    const positional: string[] = [];
    for (let i = 0; i < argv.length; i++) {
      const arg = argv[i];
      if (arg === '--') {
        positional.push(...argv.slice(i + 1));
        break;
      }
      if (!arg.startsWith('-') || arg === '-') {
        positional.push(arg);
        continue;
      }
      const long = arg.startsWith('--');
      const body = arg.slice(long ? 2 : 1);
      const eq = body.indexOf('=');
      const name = normalise(eq >= 0 ? body.slice(0, eq) : body);
      const spec = long || name.length > 1 ? this.#byName.get(name) ?? (long ? undefined : this.#byShort.get(name)) : this.#byShort.get(name) ?? this.#byName.get(name);
      if (!spec) throw new OptionError(`unknown flag: ${long ? '--' : '-'}${name}`);
      let text: string;
      if (eq >= 0) text = body.slice(eq + 1);
      else if (spec.kind.bare !== undefined) text = spec.kind.bare;
      else if (i + 1 < argv.length) text = argv[++i];
      else throw new OptionError(`flag needs an argument: --${spec.name}`);
      const value = this.#convert(spec, text, () => spec.kind.parse(text));
      const earlier = values.get(spec.name);
      values.set(spec.name, earlier !== undefined && spec.kind.merge ? (spec.kind.merge as (a: unknown, b: unknown) => unknown)(earlier, value) : value);
    }
    return { values, positional };
  }

  /** Reads a file's or scenario's mapping, keyed by flag name. */
  readValues(record: Record<string, unknown>, where = ''): Map<string, unknown> {
    const values = new Map<string, unknown>();
    for (const [name, raw] of Object.entries(record)) {
      const spec = this.#byName.get(normalise(name));
      if (!spec) throw new OptionError(`${where}unknown ${this.component} option ${JSON.stringify(name)}${this.#suggest(name)}`);
      values.set(spec.name, this.#convert(spec, raw, () => spec.kind.read(raw)));
    }
    return values;
  }

  /** Typed values given in code (`{ nodeMonitorGracePeriodMs: 20_000 }`), by flag name. */
  fromFields(fields: Partial<T>): Map<string, unknown> {
    const values = new Map<string, unknown>();
    for (const [key, value] of Object.entries(fields as Record<string, unknown>)) {
      if (value === undefined) continue;
      const spec = this.#byKey.get(key);
      if (!spec) throw new OptionError(`unknown ${this.component} option ${key}; known: ${[...this.#byKey.keys()].join(', ')}`);
      if (!spec.kind.is(value)) throw new OptionError(`invalid value ${show(value)} for --${spec.name} (${key}): must be of kind ${spec.kind.name}`);
      values.set(spec.name, value);
    }
    return values;
  }

  /** Defaults, then `values` over them; every rule checked. Throws an OptionError naming the option, the value and the rule. */
  resolve(values: Map<string, unknown>): Resolved<T> {
    const options: Record<string, unknown> = {};
    const extra: Record<string, unknown> = {};
    const warnings: string[] = [];
    const all = new Map<string, unknown>();
    for (const s of this.specs) {
      const given = values.has(s.name);
      const value = given ? values.get(s.name) : s.default;
      if (given && s.rule) {
        const bad = (s.rule as (v: unknown) => string | undefined)(value);
        if (bad) throw new OptionError(`invalid value ${show(this.#display(s, value))} for --${s.name}: ${bad}`);
      }
      if (given && s.deprecated) warnings.push(`Flag --${s.name} has been deprecated, ${s.deprecated}`);
      const valueWarning = given && s.deprecatedValue ? (s.deprecatedValue as (v: unknown) => string | undefined)(value) : undefined;
      if (valueWarning) warnings.push(`Flag --${s.name}: ${valueWarning}`);
      if (value === undefined) continue;
      all.set(s.name, value);
      if (s.key) options[s.key] = value;
      else extra[s.name] = value;
    }
    for (const r of this.crossRules) {
      const bad = r.check((n) => all.get(n), (n) => values.has(n));
      if (bad) throw new OptionError(bad);
    }
    return { options: options as T, extra, given: new Set(values.keys()), warnings };
  }

  /** The command line read, resolved. */
  parse(argv: readonly string[]): Resolved<T> & { positional: string[] } {
    const { values, positional } = this.parseArgs(argv);
    return { ...this.resolve(values), positional };
  }

  /** The typed options from fields given in code, checked by the same rules as the command line. */
  options(fields: Partial<T> = {}): T {
    return this.resolve(this.fromFields(fields)).options;
  }

  /** A value as the command line would write it, for messages. */
  #display(s: OptionSpec<T>, value: unknown): unknown {
    return typeof value === 'string' || value === undefined ? value : (s.kind.format as (v: unknown) => string)(value);
  }

  #convert(spec: OptionSpec<T>, raw: unknown, read: () => unknown): unknown {
    try {
      return read();
    } catch (e) {
      if (!(e instanceof RangeError)) throw e;
      throw new OptionError(`invalid value ${show(raw)} for --${spec.name}: ${e.message}`);
    }
  }

  #suggest(name: string): string {
    const n = normalise(name);
    let best: string | undefined;
    let bestDistance = 3;
    for (const s of this.specs) {
      const d = n.length >= 4 && (s.name.startsWith(n) || n.startsWith(s.name)) ? 1 : distance(n, s.name);
      if (d < bestDistance) [best, bestDistance] = [s.name, d];
    }
    return best ? `; did you mean ${JSON.stringify(best)}?` : '';
  }
}

/** Edits (insertions, deletions, substitutions) between two names. */
export function distance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++) next[j] = Math.min(row[j] + 1, next[j - 1] + 1, row[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    row = next;
  }
  return row[b.length];
}
