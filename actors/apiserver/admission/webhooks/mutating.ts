// MutatingAdmissionWebhook (apiserver admission/plugin/webhook/mutating dispatcher.go and
// reinvocationcontext.go): the matching webhooks called one after another, in configuration-name
// order, each seeing the object as the ones before left it. A webhook whose patch changed the object
// asks for the mutating phase to run again (admission/chain.ts); in that second round only the
// webhooks with reinvocationPolicy IfNeeded that were called before a later change are called
// again, and a webhook not called in the first round is never called for the first time.
import type { KObject } from '../../../api/types.ts';
import { deepEqual } from '../../registry/deep-equal.ts';
import type { AdmissionAttributes, AdmissionLookup, AdmissionPlugin } from '../chain.ts';
import { callWebhook, type CallDeps } from './call.ts';
import { denied, failedClosed, WebhookCallError } from './errors.ts';
import { anyRuleTakes, invocationFor, type Equivalents, type Invocation } from './matching.ts';
import { applyWebhookPatch } from './mutation.ts';
import type { Hook, WebhookSource } from './source.ts';

/** What one request's rounds remember (webhookReinvokeContext). */
interface Rounds {
  /** The object as the webhooks left it at the end of the last round. */
  lastOutput: KObject | undefined;
  /** IfNeeded webhooks called since the object last changed. */
  previouslyInvoked: Set<string>;
  /** The webhooks the second round calls. */
  reinvoke: Set<string>;
}

const roundsOf = new WeakMap<AdmissionAttributes, Rounds>();

/** A change: every IfNeeded webhook called before it is to be called again. */
function requireReinvoking(r: Rounds): void {
  for (const uid of r.previouslyInvoked) r.reinvoke.add(uid);
  r.previouslyInvoked.clear();
}

/** Calls one webhook and applies its answer; answers whether the object changed. */
async function mutateWith(invocation: Invocation, a: AdmissionAttributes, deps: CallDeps): Promise<boolean> {
  const name = invocation.hook.name;
  const response = await callWebhook(invocation, a, true, deps);
  a.warnings?.push(...response.warnings);
  if (!response.allowed) throw denied(name, response.result);
  return applyWebhookPatch(name, response, a);
}

async function dispatch(hooks: readonly Hook[], a: AdmissionAttributes, lookup: AdmissionLookup, deps: CallDeps, equivalentsOf: Equivalents): Promise<void> {
  let rounds = roundsOf.get(a);
  const reinvoking = a.reinvocation?.reinvoking === true;
  // Nothing was called in the first round: there is nothing to call again.
  if (reinvoking && !rounds) return;
  // The plugins before this one changed the object in the second round: everything called counts as before a change.
  if (reinvoking && rounds && !deepEqual(rounds.lastOutput, a.object)) requireReinvoking(rounds);
  const equivalents = equivalentsOf(a.type);
  try {
    for (const hook of hooks) {
      const invocation = await invocationFor(hook, a, lookup, equivalents);
      if (!invocation || (reinvoking && !rounds!.reinvoke.has(hook.uid))) continue;
      if (!rounds) roundsOf.set(a, (rounds = { lastOutput: undefined, previouslyInvoked: new Set(), reinvoke: new Set() }));
      let changed = false;
      try {
        changed = await mutateWith(invocation, a, deps);
      } catch (e) {
        if (!(e instanceof WebhookCallError)) throw e;
        if (hook.failurePolicy !== 'Ignore') throw failedClosed(e);
      }
      if (changed) {
        requireReinvoking(rounds);
        (a.reinvocation ??= { requested: false, reinvoking: false }).requested = true;
      }
      if (hook.reinvocationPolicy === 'IfNeeded') rounds.previouslyInvoked.add(hook.uid);
    }
  } finally {
    if (rounds) rounds.lastOutput = a.object && structuredClone(a.object);
  }
}

export function mutatingWebhookPlugin(source: WebhookSource, deps: CallDeps, equivalents: Equivalents): AdmissionPlugin {
  return {
    name: 'MutatingAdmissionWebhook',
    mutate(a, lookup) {
      const hooks = source.mutating;
      return anyRuleTakes(hooks, a, equivalents) ? dispatch(hooks, a, lookup, deps, equivalents) : undefined;
    },
  };
}
