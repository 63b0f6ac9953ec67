// Patterns of custom resource schemas are Go regular expressions (RE2 syntax, matched anywhere in
// the string, in time linear in the input). @bufbuild/re2 implements the same syntax and reports
// errors in Go's words (`error parsing regexp: missing closing ): ...`); JavaScript's RegExp would
// accept lookarounds RE2 refuses and backtrack without bound on hostile input.
import { RE2JS } from '@bufbuild/re2';

export interface Pattern {
  test(s: string): boolean;
}

/** The compiled pattern, or Go's error text for one RE2 refuses. */
export function compilePattern(pattern: string): Pattern | { error: string } {
  try {
    return RE2JS.compile(pattern);
  } catch (e) {
    return { error: e instanceof Error ? e.message : String(e) };
  }
}

export const isPatternError = (p: Pattern | { error: string }): p is { error: string } => 'error' in p;
