// A value read from a scenario (or manifests) file together with where it sits, and the error
// that names that place. Every check in this folder reads its input through a Field, so any
// failure can say `file: path: rule, got value` without the checks carrying paths around.

/**
 * A scenario file that cannot be run as written. The message names the file, the line (syntax
 * errors) or the path of the bad field, the rule it breaks and the value it has, e.g.
 * `quickstart.yaml: nodePools[1].count: must be a positive integer, got "ten"`.
 */
export class ScenarioError extends Error {
  override readonly name = 'ScenarioError';
  /** The file as the user named it (base name for the scenario, as written for manifests). */
  readonly file: string;
  /** `nodePools[1].count`; '' for the whole document or a syntax error. */
  readonly path: string;
  /** 1-based, for YAML syntax errors. */
  readonly line: number | undefined;

  constructor(file: string, path: string, message: string, options: { line?: number; cause?: unknown } = {}) {
    const where = [file, options.line === undefined ? '' : `line ${options.line}`, path].filter((s) => s !== '');
    super(`${where.join(': ')}: ${message}`, options.cause === undefined ? undefined : { cause: options.cause });
    this.file = file;
    this.path = path;
    this.line = options.line;
  }
}

const SHOWN_MAX_CHARS = 60;

/** The value as the error quotes it: JSON, cut short when long. */
export function show(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > SHOWN_MAX_CHARS ? `${text.slice(0, SHOWN_MAX_CHARS - 3)}...` : text;
}

const LISTED_MAX = 10;

/** Names for a message, the first few only: `a, b, c` or `a, b, ... (12 in all)`. */
export function listed(names: readonly string[]): string {
  if (names.length <= LISTED_MAX) return names.join(', ');
  return `${names.slice(0, LISTED_MAX).join(', ')}, ... (${names.length} in all)`;
}

const PLAIN_KEY = /^[A-Za-z_][A-Za-z0-9_]*$/;

export class Field {
  constructor(
    readonly file: string,
    readonly path: string,
    readonly value: unknown,
  ) {}

  /** YAML's empty value (`labels:`) counts as absent, like a missing key. */
  get present(): boolean {
    return this.value !== undefined && this.value !== null;
  }

  /** The field `key` of this (mapping) value; keys that are not identifiers are quoted: `labels["a/b"]`. */
  child(key: string): Field {
    const value = isMapping(this.value) ? this.value[key] : undefined;
    const step = PLAIN_KEY.test(key) ? (this.path ? `.${key}` : key) : `[${JSON.stringify(key)}]`;
    return new Field(this.file, `${this.path}${step}`, value);
  }

  item(index: number): Field {
    const value = Array.isArray(this.value) ? this.value[index] : undefined;
    return new Field(this.file, `${this.path}[${index}]`, value);
  }

  /** A Field at the same place holding another value (a default, or a converted form). */
  with(value: unknown): Field {
    return new Field(this.file, this.path, value);
  }

  /** Throws: `file: path: rule, got value`, or `file: path: required (rule)` when absent. */
  fail(rule: string): never {
    throw new ScenarioError(this.file, this.path, this.present ? `${rule}, got ${show(this.value)}` : `required (${rule})`);
  }

  /** Throws with `message` as is, not quoting the value. */
  error(message: string): never {
    throw new ScenarioError(this.file, this.path, message);
  }

  /**
   * The value as a mapping having only `allowed` keys. An unknown key is an error at that key
   * naming the allowed ones, and the closest when it looks like a typo.
   */
  mapping(allowed: readonly string[], what = 'a mapping'): Record<string, unknown> {
    if (!isMapping(this.value)) this.fail(`must be ${what}`);
    for (const key of Object.keys(this.value)) if (!allowed.includes(key)) this.rejectKey(key, allowed);
    return this.value;
  }

  /** Throws at `key`: `what`, with the allowed keys and the closest when it looks like a typo. */
  rejectKey(key: string, allowed: readonly string[], what = 'unknown field', allowedAre = 'allowed fields'): never {
    const near = closest(key, allowed);
    const hint = near ? ` (did you mean ${near}?)` : '';
    return this.child(key).error(`${what}${hint}; ${allowedAre}: ${allowed.join(', ')}`);
  }

  /** The value as a list of Fields, at most `max` long. */
  list(what: string, options: { nonEmpty?: boolean; max?: number } = {}): Field[] {
    if (!Array.isArray(this.value)) this.fail(`must be a list of ${what}`);
    if (options.nonEmpty && this.value.length === 0) this.fail(`must list at least one of ${what}`);
    if (options.max !== undefined && this.value.length > options.max) this.error(`must list at most ${options.max} ${what}, got ${this.value.length}`);
    return this.value.map((_, i) => this.item(i));
  }
}

export function isMapping(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The allowed key nearest to `key`, if it looks like a typo of it: case-insensitive edit distance
 * (a swap of neighbours counting one) of 1, or 2 for keys of five characters or more.
 */
function closest(key: string, allowed: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = (key.length >= 5 ? 2 : 1) + 1;
  for (const candidate of allowed) {
    const d = editDistance(key.toLowerCase(), candidate.toLowerCase());
    if (d < bestDistance) [best, bestDistance] = [candidate, d];
  }
  return best;
}

/** Optimal string alignment distance: insertions, deletions, substitutions and adjacent swaps. */
function editDistance(a: string, b: string): number {
  let before: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      let d = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, before[j - 2]! + 1);
      current[j] = d;
    }
    [before, previous] = [previous, current];
  }
  return previous[b.length]!;
}
