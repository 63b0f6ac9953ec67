// A webhook's matchConditions (apiserver admission/plugin/webhook/matchconditions): CEL
// expressions over `object`, `oldObject` and `request` (the request without its uid, objects or
// options), compiled once when the configuration is read, evaluated for each request the rules and
// selectors send the webhook. The first condition that is false skips the webhook; conditions that
// fail to evaluate (and none false) skip it under failurePolicy Ignore and refuse the request with
// 403 under Fail. The `authorizer` variable is not offered: a condition naming it does not compile.
import { isCelError, type CelInput } from '@bufbuild/cel';
import type { Json, KObject } from '../../../api/types.ts';
import { compileExpressionOver, type Program } from '../../cel/compile.ts';
import { toCel } from '../../cel/values.ts';
import type { AdmissionAttributes } from '../chain.ts';
import type { Invocation } from './matching.ts';
import { asInvoked, requestFields } from './request.ts';

export const CONDITION_VARIABLES = ['object', 'oldObject', 'request'];

export interface MatchCondition {
  readonly name: string;
  readonly expression: string;
  readonly program?: Program;
  /** Why the expression does not compile (only a configuration stored around validation has one). */
  readonly error?: string;
}

export function compileCondition(name: string, expression: string): MatchCondition {
  const compiled = compileExpressionOver(expression.trim(), CONDITION_VARIABLES);
  return 'error' in compiled ? { name, expression, error: compiled.error } : { name, expression, program: compiled.program };
}

const value = (o: KObject | null): CelInput => (o ? toCel(o as unknown as Json, undefined) : null);

/** What @bufbuild/cel says of a failed evaluation, in cel-go's words where they differ. */
function evaluationError(expression: string, message: string): string {
  const missing = /^field not found: (.*)$/.exec(message);
  return `expression '${expression}' resulted in error: ${missing ? `no such key: ${missing[1]}` : message}`;
}

/**
 * Whether the conditions select the request: true, false (the first false condition decides), or
 * the errors of those that could not be evaluated, as Go aggregates them.
 */
export function conditionsMatch(conditions: readonly MatchCondition[], inv: Invocation, a: AdmissionAttributes): boolean | { error: string } {
  const bindings: Record<string, CelInput> = {
    object: value(asInvoked(a.object, inv)),
    oldObject: value(asInvoked(a.old, inv)),
    request: toCel({ ...requestFields(inv, a), dryRun: a.dryRun } as unknown as Json, undefined),
  };
  const errors: string[] = [];
  for (const c of conditions) {
    const result = c.program ? c.program(bindings) : undefined;
    if (result === false) return false;
    if (!c.program) errors.push(c.error ?? '');
    else if (isCelError(result)) errors.push(evaluationError(c.expression, result.message));
    else if (typeof result !== 'boolean') errors.push(`expression '${c.expression}' resulted in error: cel expression must evaluate to a bool`);
  }
  if (errors.length === 0) return true;
  return { error: errors.length === 1 ? errors[0]! : `[${errors.join(', ')}]` };
}
