// Patterns of custom resource schemas are Go regular expressions (RE2 syntax, matched anywhere in
// the string, in time linear in the input). @bufbuild/re2 implements the same syntax and reports
// errors in Go's words (`error parsing regexp: missing closing ): ...`); JavaScript's RegExp would
// accept lookarounds RE2 refuses and backtrack without bound on hostile input.
import { RE2JS } from '@bufbuild/re2';

export interface Pattern {
  test(s: string): boolean;
}

/** How many recent answers a pattern remembers: objects are written again with the same values. */
const REMEMBERED = 512;

/** The compiled pattern, or Go's error text for one RE2 refuses. */
export function compilePattern(pattern: string): Pattern | { error: string } {
  let re: RE2JS;
  try {
    re = RE2JS.compile(pattern);
  } catch (e) {
    return { error: e instanceof Error ? e.message : String(e) };
  }
  // RE2JS takes some microseconds a match; a bounded memo of recent answers makes the usual
  // update, which repeats most values, cost a lookup.
  const memo = new Map<string, boolean>();
  return {
    test(s: string): boolean {
      const known = memo.get(s);
      if (known !== undefined) return known;
      const result = re.test(s);
      if (s.length <= 1024) {
        if (memo.size >= REMEMBERED) memo.clear();
        memo.set(s, result);
      }
      return result;
    },
  };
}

export const isPatternError = (p: Pattern | { error: string }): p is { error: string } => 'error' in p;
