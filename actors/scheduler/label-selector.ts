// Structured label selectors, as pod affinity terms, topology spread constraints and node affinity
// carry them: `matchLabels` plus `matchExpressions`, compiled once per pod and matched many times
// against label maps. (The string form that list and watch requests carry is actors/api/selectors.ts.)
// Semantics follow the resource protocol: a missing selector selects nothing, an empty one selects
// everything, requirements are ANDed; node selector requirements add the integer operators Gt and Lt.

export type Labels = Readonly<Record<string, string>>;

export interface LabelSelectorRequirement {
  key: string;
  operator: string;
  values?: string[];
}

export interface LabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: LabelSelectorRequirement[];
}

/** A selector that cannot be compiled (an unknown operator, a wrong number of values). */
export class InvalidSelectorError extends Error {
  override readonly name = 'InvalidSelectorError';
  constructor(message: string, readonly requirement: unknown) {
    super(message);
  }
}

export interface CompiledSelector {
  /** Compiled from `{}` (or no requirements): selects every label set. */
  readonly everything: boolean;
  /** Compiled from a missing selector: selects nothing. */
  readonly nothing: boolean;
  /** The requirements in a canonical order: equal texts select the same label sets. */
  readonly text: string;
  matches(labels: Labels): boolean;
}

const IN = 0, NOT_IN = 1, EXISTS = 2, DOES_NOT_EXIST = 3, GT = 4, LT = 5;
const OPERATORS: Record<string, number> = { In: IN, NotIn: NOT_IN, Exists: EXISTS, DoesNotExist: DOES_NOT_EXIST, Gt: GT, Lt: LT };
const OPERATOR_NAMES = ['In', 'NotIn', 'Exists', 'DoesNotExist', 'Gt', 'Lt'];
/** strconv.ParseInt(s, 10, 64) accepts exactly this (range aside). */
const INTEGER = /^[+-]?\d+$/;

interface Requirement {
  key: string;
  op: number;
  values: string[];
  /** The single operand of Gt and Lt. */
  bound: number;
}

const NOTHING: CompiledSelector = { everything: false, nothing: true, text: '<nothing>', matches: () => false };
const EVERYTHING: CompiledSelector = { everything: true, nothing: false, text: '', matches: () => true };

/** A label's value, or undefined when absent (never an inherited Object member). */
export function labelValue(labels: Labels, key: string): string | undefined {
  const v = labels[key];
  return typeof v === 'string' ? v : undefined;
}

function requirement(r: LabelSelectorRequirement, numeric: boolean): Requirement {
  const op = OPERATORS[r.operator];
  if (op === undefined || (!numeric && op >= GT)) {
    throw new InvalidSelectorError(`"${r.operator}" is not a valid label selector operator`, r);
  }
  const values = r.values ?? [];
  if ((op === IN || op === NOT_IN) && values.length === 0) {
    throw new InvalidSelectorError(`key ${r.key}: for 'in', 'notin' operators, values set can't be empty`, r);
  }
  if ((op === EXISTS || op === DOES_NOT_EXIST) && values.length > 0) {
    throw new InvalidSelectorError(`key ${r.key}: values set must be empty for exists and does not exist`, r);
  }
  let bound = 0;
  if (op === GT || op === LT) {
    if (values.length !== 1 || !INTEGER.test(values[0]!)) {
      throw new InvalidSelectorError(`key ${r.key}: for 'Gt', 'Lt' operators, exactly one integer value is required`, r);
    }
    bound = Number(values[0]);
  }
  return { key: r.key, op, values: [...values].sort(), bound };
}

function satisfies(r: Requirement, labels: Labels): boolean {
  const v = labelValue(labels, r.key);
  switch (r.op) {
    case IN: return v !== undefined && r.values.includes(v);
    case NOT_IN: return v === undefined || !r.values.includes(v);
    case EXISTS: return v !== undefined;
    case DOES_NOT_EXIST: return v === undefined;
    default: {
      if (v === undefined || !INTEGER.test(v)) return false;
      return r.op === GT ? Number(v) > r.bound : Number(v) < r.bound;
    }
  }
}

function compile(reqs: Requirement[]): CompiledSelector {
  if (reqs.length === 0) return EVERYTHING;
  reqs.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : a.op - b.op));
  const text = reqs.map((r) => `${r.key} ${OPERATOR_NAMES[r.op]} (${r.values.join(',')})`).join(', ');
  return {
    everything: false,
    nothing: false,
    text,
    matches(labels) {
      for (let i = 0; i < reqs.length; i++) if (!satisfies(reqs[i]!, labels)) return false;
      return true;
    },
  };
}

/**
 * Compiles a label selector; `extra` adds `key = value` requirements (as matchLabelKeys does).
 * Throws InvalidSelectorError for an operator other than In, NotIn, Exists, DoesNotExist or a
 * value list of the wrong size.
 */
export function compileLabelSelector(selector: LabelSelector | null | undefined, extra?: Labels): CompiledSelector {
  if (selector === null || selector === undefined) return NOTHING;
  const reqs: Requirement[] = [];
  for (const [key, value] of Object.entries(selector.matchLabels ?? {})) reqs.push({ key, op: IN, values: [value], bound: 0 });
  for (const r of selector.matchExpressions ?? []) reqs.push(requirement(r, false));
  for (const [key, value] of Object.entries(extra ?? {})) reqs.push({ key, op: IN, values: [value], bound: 0 });
  return compile(reqs);
}

/**
 * Compiles node selector requirements (one term's matchExpressions): the label operators plus Gt
 * and Lt, which compare the label's value as an integer (a non-integer value never matches).
 */
export function compileNodeSelectorRequirements(reqs: readonly LabelSelectorRequirement[]): CompiledSelector {
  return compile(reqs.map((r) => requirement(r, true)));
}

/** A selector for exactly these labels (`{}` selects everything). */
export function selectorFromSet(set: Labels): CompiledSelector {
  return compileLabelSelector({ matchLabels: { ...set } });
}
