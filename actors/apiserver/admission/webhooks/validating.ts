// ValidatingAdmissionWebhook (apiserver admission/plugin/webhook/validating dispatcher.go): every
// matching webhook called at once about the object the kind's validation accepted; the request is
// refused with the first refusal, in configuration order (the real dispatcher takes whichever
// arrives first), and its webhooks' warnings reach the answer in that order too.
import type { StatusError } from '../../../api/status.ts';
import type { AdmissionAttributes, AdmissionLookup, AdmissionPlugin } from '../chain.ts';
import { callWebhook, type CallDeps } from './call.ts';
import { denied, failedClosed, WebhookCallError } from './errors.ts';
import { anyRuleTakes, invocationFor, type Equivalents, type Invocation } from './matching.ts';
import type { Hook, WebhookSource } from './source.ts';

/** The warnings of one call, and its refusal when it refuses (a call failure under Ignore does not). */
async function verdict(invocation: Invocation, a: AdmissionAttributes, deps: CallDeps): Promise<{ warnings: string[]; refusal?: Error }> {
  const hook = invocation.hook;
  try {
    const response = await callWebhook(invocation, a, false, deps);
    return { warnings: response.warnings, ...(response.allowed ? {} : { refusal: denied(hook.name, response.result) }) };
  } catch (e) {
    if (!(e instanceof WebhookCallError)) return { warnings: [], refusal: e as StatusError };
    return { warnings: [], ...(hook.failurePolicy === 'Ignore' ? {} : { refusal: failedClosed(e) }) };
  }
}

async function dispatch(hooks: readonly Hook[], a: AdmissionAttributes, lookup: AdmissionLookup, deps: CallDeps, equivalentsOf: Equivalents): Promise<void> {
  const equivalents = equivalentsOf(a.type);
  const invocations: Invocation[] = [];
  for (const hook of hooks) {
    const invocation = await invocationFor(hook, a, lookup, equivalents);
    if (invocation) invocations.push(invocation);
  }
  const verdicts = await Promise.all(invocations.map((inv) => verdict(inv, a, deps)));
  for (const v of verdicts) a.warnings?.push(...v.warnings);
  const refusal = verdicts.find((v) => v.refusal)?.refusal;
  if (refusal) throw refusal;
}

export function validatingWebhookPlugin(source: WebhookSource, deps: CallDeps, equivalents: Equivalents): AdmissionPlugin {
  return {
    name: 'ValidatingAdmissionWebhook',
    validate(a, lookup) {
      const hooks = source.validating;
      return anyRuleTakes(hooks, a, equivalents) ? dispatch(hooks, a, lookup, deps, equivalents) : undefined;
    },
  };
}
