// The string form of a label selector (`app=web,tier in (front,back),!canary,replicas>2`), read
// as apimachinery's pkg/labels Parse reads it in Kubernetes 1.32: the same tokens, the same
// grammar, the same key and value rules and the same error texts, so a selector the real server
// refuses is refused here with its words, and every one it accepts means the same here.
import { isQualifiedName, isValidLabelValue } from './name-rules.ts';

export type Operator = 'in' | 'notin' | '=' | '==' | '!=' | 'exists' | '!' | 'gt' | 'lt';

export interface Requirement {
  key: string;
  operator: Operator;
  /** Sorted and without duplicates, as the parser's string set lists them. */
  values: string[];
}

/** A selector the real parser refuses; `message` is its error text. */
export class SelectorSyntaxError extends Error {
  override readonly name = 'SelectorSyntaxError';
}

// The lexer's tokens.
const Token = {
  EndOfString: 0, ClosedPar: 1, Comma: 2, DoesNotExist: 3, DoubleEquals: 4, Equals: 5, GreaterThan: 6,
  Identifier: 7, In: 8, LessThan: 9, NotEquals: 10, NotIn: 11, OpenPar: 12,
} as const;
type Token = (typeof Token)[keyof typeof Token];

const SYMBOLS: Readonly<Record<string, Token>> = {
  ')': Token.ClosedPar, ',': Token.Comma, '!': Token.DoesNotExist, '==': Token.DoubleEquals, '=': Token.Equals,
  '>': Token.GreaterThan, '<': Token.LessThan, '!=': Token.NotEquals, '(': Token.OpenPar,
};

/** The binary operators as the parser lists them when it finds none. */
const BINARY_OPERATORS = 'in, notin, =, ==, !=, gt, lt';

const isWhitespace = (c: string): boolean => c === ' ' || c === '\t' || c === '\r' || c === '\n';
const isSpecial = (c: string): boolean => c === '=' || c === '!' || c === '(' || c === ')' || c === ',' || c === '>' || c === '<';

interface Item {
  token: Token;
  literal: string;
}

/** Splits a selector into tokens; symbols are read greedily (`!=` before `!`), words up to a symbol or blank. */
function lex(s: string): Item[] {
  const items: Item[] = [];
  let i = 0;
  for (;;) {
    while (i < s.length && isWhitespace(s[i]!)) i++;
    if (i >= s.length) {
      items.push({ token: Token.EndOfString, literal: '' });
      return items;
    }
    const start = i;
    if (isSpecial(s[i]!)) {
      // Two symbols make one token only where the pair is a token (`!=`, `==`).
      const pair = s.slice(i, i + 2);
      const literal = SYMBOLS[pair] !== undefined && pair.length === 2 ? pair : s[i]!;
      items.push({ token: SYMBOLS[literal]!, literal });
      i += literal.length;
      continue;
    }
    while (i < s.length && !isSpecial(s[i]!) && !isWhitespace(s[i]!)) i++;
    const literal = s.slice(start, i);
    items.push({ token: literal === 'in' ? Token.In : literal === 'notin' ? Token.NotIn : Token.Identifier, literal });
  }
}

/** `<nil>: Invalid value: "k": ...`: a field error at the parser's (absent) path. */
function invalidAt(path: string, value: string, problems: string[]): string {
  return `${path}: Invalid value: ${JSON.stringify(value)}: ${problems.join('; ')}`;
}

class Parser {
  #position = 0;

  constructor(private readonly items: Item[]) {}

  /** In a values context `in` and `notin` are plain words: `x in (in)`, `notin=in`. */
  #read(advance: boolean, asValue: boolean): Item {
    const item = this.items[this.#position]!;
    if (advance) this.#position++;
    if (asValue && (item.token === Token.In || item.token === Token.NotIn)) return { token: Token.Identifier, literal: item.literal };
    return item;
  }

  peek = (asValue = true): Item => this.#read(false, asValue);
  next = (asValue = true): Item => this.#read(true, asValue);

  parse(): Requirement[] {
    const requirements: Requirement[] = [];
    for (;;) {
      const { token, literal } = this.peek();
      if (token === Token.EndOfString) return requirements;
      if (token !== Token.Identifier && token !== Token.DoesNotExist)
        throw new SelectorSyntaxError(`found '${literal}', expected: !, identifier, or 'end of string'`);
      requirements.push(this.#requirement());
      const after = this.next();
      if (after.token === Token.EndOfString) return requirements;
      if (after.token !== Token.Comma) throw new SelectorSyntaxError(`found '${after.literal}', expected: ',' or 'end of string'`);
      const following = this.peek();
      if (following.token !== Token.Identifier && following.token !== Token.DoesNotExist)
        throw new SelectorSyntaxError(`found '${following.literal}', expected: identifier after ','`);
    }
  }

  #requirement(): Requirement {
    try {
      const { key, unary } = this.#keyAndUnaryOperator();
      if (unary) return { key, operator: unary, values: [] };
      const operator = this.#operator();
      const values = operator === 'in' || operator === 'notin' ? sortedSet(this.#valueSet()) : [this.#exactValue()];
      return { key, operator, values: checkedValues(key, operator, values) };
    } catch (e) {
      if (e instanceof SelectorSyntaxError) throw new SelectorSyntaxError(`unable to parse requirement: ${e.message}`);
      throw e;
    }
  }

  /** The key, and `!` or (before `,` or the end) exists; a binary operator follows otherwise. */
  #keyAndUnaryOperator(): { key: string; unary?: 'exists' | '!' } {
    let item = this.next();
    const negated = item.token === Token.DoesNotExist;
    if (negated) item = this.next();
    if (item.token !== Token.Identifier) throw new SelectorSyntaxError(`found '${item.literal}', expected: identifier`);
    const problems = isQualifiedName(item.literal);
    if (problems.length > 0) throw new SelectorSyntaxError(invalidAt('<nil>', item.literal, problems));
    if (negated) return { key: item.literal, unary: '!' };
    const following = this.peek().token;
    return following === Token.EndOfString || following === Token.Comma ? { key: item.literal, unary: 'exists' } : { key: item.literal };
  }

  #operator(): Exclude<Operator, 'exists' | '!'> {
    const { token, literal } = this.next(false);
    switch (token) {
      case Token.In: return 'in';
      case Token.NotIn: return 'notin';
      case Token.Equals: return '=';
      case Token.DoubleEquals: return '==';
      case Token.NotEquals: return '!=';
      case Token.GreaterThan: return 'gt';
      case Token.LessThan: return 'lt';
      default: throw new SelectorSyntaxError(`found '${literal}', expected: ${BINARY_OPERATORS}`);
    }
  }

  /** `(a,b)`; empty items are the empty value, and `()` is the set of the empty value. */
  #valueSet(): Set<string> {
    const open = this.next();
    if (open.token !== Token.OpenPar) throw new SelectorSyntaxError(`found '${open.literal}' expected: '('`);
    const first = this.peek();
    if (first.token === Token.ClosedPar) {
      this.next();
      return new Set(['']);
    }
    if (first.token !== Token.Identifier && first.token !== Token.Comma)
      throw new SelectorSyntaxError(`found '${first.literal}', expected: ',', ')' or identifier`);
    const values = this.#valueList();
    this.next(); // the ')' the list stopped at
    return values;
  }

  // The 1.32 parser's own walk, quirks kept: `(a,,b)` holds the empty value, `(,,)` is refused.
  #valueList(): Set<string> {
    const values = new Set<string>();
    for (;;) {
      const { token, literal } = this.next();
      if (token === Token.Identifier) {
        values.add(literal);
        const following = this.peek();
        if (following.token === Token.ClosedPar) return values;
        if (following.token !== Token.Comma) throw new SelectorSyntaxError(`found '${following.literal}', expected: ',' or ')'`);
      } else if (token === Token.Comma) {
        if (values.size === 0) values.add('');
        const following = this.peek().token;
        if (following === Token.ClosedPar) {
          values.add('');
          return values;
        }
        if (following === Token.Comma) {
          this.next();
          values.add('');
        }
      } else {
        throw new SelectorSyntaxError(`found '${literal}', expected: ',', or identifier`);
      }
    }
  }

  #exactValue(): string {
    const following = this.peek().token;
    if (following === Token.EndOfString || following === Token.Comma) return '';
    const { token, literal } = this.next();
    if (token !== Token.Identifier) throw new SelectorSyntaxError(`found '${literal}', expected: identifier`);
    return literal;
  }
}

function sortedSet(values: Set<string>): string[] {
  return values.size === 1 ? [...values] : [...values].sort();
}

const INT64 = /^[+-]?[0-9]+$/;
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/** The value as strconv.ParseInt(v, 10, 64) reads it; undefined where Go answers an error. */
export function parseInt64(v: string): bigint | undefined {
  if (!INT64.test(v)) return undefined;
  const n = BigInt(v);
  return n < INT64_MIN || n > INT64_MAX ? undefined : n;
}

/** NewRequirement's checks of the values (the key was checked as it was read); several problems print as a list. */
function checkedValues(key: string, operator: Operator, values: string[]): string[] {
  const problems: string[] = [];
  if (operator === 'gt' || operator === 'lt') {
    for (let i = 0; i < values.length; i++)
      if (parseInt64(values[i]!) === undefined) problems.push(invalidAt(`values[${i}]`, values[i]!, ["for 'Gt', 'Lt' operators, the value must be an integer"]));
  }
  for (let i = 0; i < values.length; i++) {
    const wrong = isValidLabelValue(values[i]!);
    if (wrong.length > 0) problems.push(invalidAt(`values[${i}][${key}]`, values[i]!, wrong));
  }
  if (problems.length === 0) return values;
  const unique = [...new Set(problems)];
  if (unique.length === 1) throw new SelectorSyntaxError(unique[0]!);
  if (unique.length > 1) throw new SelectorSyntaxError(`[${unique.join(', ')}]`);
  return values;
}

/** The requirements of a selector, in its order; throws SelectorSyntaxError with the real parser's message. */
export function parseRequirements(selector: string): Requirement[] {
  return new Parser(lex(selector)).parse();
}
