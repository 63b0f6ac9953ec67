// Which webhooks a request calls (apiserver admission/plugin/webhook/predicates and generic
// webhook.go ShouldCallHook): a rule matching its operation, group, version, resource (with
// subresource: `pods/status`, `*/status`, `pods/*`, `*/*`) and scope; with matchPolicy Equivalent,
// a rule matching the same resource at another version also calls it, with the object at that
// version; the namespace selector against the namespace's labels (a Namespace's own, on its
// create and update) and the object selector against the new or the old object's labels; then
// its matchConditions (match-conditions.ts). The webhook configurations themselves are never sent
// to webhooks.
//
// The rules are tried first, then the selectors, so a request no rule matches costs no namespace
// read; errors of the selectors count only for requests the webhook would be called for, as in
// the real order.
import type { ResourceType } from '../../../api/resources.ts';
import { forbidden, internal, notFound, StatusError } from '../../../api/status.ts';
import type { KObject } from '../../../api/types.ts';
import type { Labels } from '../../../scheduler/label-selector.ts';
import type { AdmissionAttributes, AdmissionLookup } from '../chain.ts';
import { conditionsMatch } from './match-conditions.ts';
import { isNamespaces, kindOfRequest, requestNamespace } from './request.ts';
import { ADMISSION_GROUP, type Hook, type Rule, type Selector } from './source.ts';

export interface GroupVersionResource { group: string; version: string; resource: string }
export interface GroupVersionKind { group: string; version: string; kind: string }

/** A webhook to call, and the resource and kind the request is sent to it as. */
export interface Invocation {
  hook: Hook;
  resource: GroupVersionResource;
  subresource: string;
  kind: GroupVersionKind;
}

const EXEMPT_KINDS = new Set(['ValidatingWebhookConfiguration', 'MutatingWebhookConfiguration', 'ValidatingAdmissionPolicy',
  'ValidatingAdmissionPolicyBinding', 'MutatingAdmissionPolicy', 'MutatingAdmissionPolicyBinding']);

export const isExempt = (type: ResourceType): boolean => type.group === ADMISSION_GROUP && EXEMPT_KINDS.has(type.kind);

/** Served resources that share `type`'s storage at another version (a custom resource's other served versions). */
export function equivalentResources(type: ResourceType, served: readonly ResourceType[]): ResourceType[] {
  return served.filter((t) => t !== type && t.group === type.group && t.resource === type.resource);
}

/** The resources equivalent to a type's (equivalentResources among those served now). */
export type Equivalents = (type: ResourceType) => readonly ResourceType[];

/** What a server serves: its catalogue, whose generation grows with every type defined or removed. */
export interface Served {
  all(): readonly ResourceType[];
  readonly generation: number;
}

/** Equivalents among what `served` serves, each type's computed once per generation of it. */
export function equivalenceIn(served: Served): Equivalents {
  let generation = -1;
  let known = new Map<ResourceType, ResourceType[]>();
  return (type) => {
    if (served.generation !== generation) {
      generation = served.generation;
      known = new Map();
    }
    let found = known.get(type);
    if (!found) known.set(type, (found = equivalentResources(type, served.all())));
    return found;
  };
}

const exactOrWildcard = (items: readonly string[], requested: string) => items.some((i) => i === '*' || i === requested);

export function ruleMatches(rule: Rule, a: AdmissionAttributes, resource: GroupVersionResource): boolean {
  const namespaced = requestNamespace(a) !== '' && !(resource.group === '' && resource.resource === 'namespaces');
  if (rule.scope === 'Namespaced' && !namespaced) return false;
  if (rule.scope === 'Cluster' && namespaced) return false;
  if (!rule.operations.some((op) => op === '*' || op === a.operation)) return false;
  if (!exactOrWildcard(rule.apiGroups, resource.group) || !exactOrWildcard(rule.apiVersions, resource.version)) return false;
  const sub = a.subresource ?? '';
  return rule.resources.some((r) => {
    const slash = r.indexOf('/');
    const res = slash < 0 ? r : r.slice(0, slash);
    const rsub = slash < 0 ? '' : r.slice(slash + 1);
    return (res === '*' || res === resource.resource) && (rsub === '*' || rsub === sub);
  });
}

/** The invocation the rules make of the request: at its own resource, or (Equivalent) at another version of it. */
export function matchRules(hook: Hook, a: AdmissionAttributes, equivalents: readonly ResourceType[]): Invocation | undefined {
  const own = { group: a.type.group, version: a.type.version, resource: a.type.resource };
  const subresource = a.subresource ?? '';
  if (hook.rules.some((r) => ruleMatches(r, a, own))) return { hook, resource: own, subresource, kind: kindOfRequest(a.type, a.subresource) };
  if (hook.matchPolicy !== 'Equivalent') return undefined;
  for (const rule of hook.rules)
    for (const t of equivalents) {
      const resource = { group: t.group, version: t.version, resource: t.resource };
      if (ruleMatches(rule, a, resource)) return { hook, resource, subresource, kind: kindOfRequest(t, a.subresource) };
    }
  return undefined;
}

/**
 * Whether any of `hooks` may be called for the request, by the rules alone (they read only the
 * request, never the object): without one, a write costs the webhook plugins no promise.
 */
export function anyRuleTakes(hooks: readonly Hook[], a: AdmissionAttributes, equivalentsOf: Equivalents): boolean {
  if (hooks.length === 0 || isExempt(a.type)) return false;
  const equivalents = equivalentsOf(a.type);
  return hooks.some((h) => matchRules(h, a, equivalents) !== undefined);
}

const labelsOf = (o: KObject | undefined): Labels => o?.metadata.labels ?? {};

/** Whether the object selector selects the request: true, false, or the error of a selector that does not compile. */
function objectSelects(s: Selector, a: AdmissionAttributes): boolean | StatusError {
  if ('error' in s) return internal(s.error);
  if (s.everything) return true;
  return (a.object !== undefined && s.matches(labelsOf(a.object))) || (a.old !== undefined && s.matches(labelsOf(a.old)));
}

/** Whether the namespace selector selects the request, reading the namespace only where it must. */
function namespaceSelects(s: Selector, a: AdmissionAttributes, lookup: AdmissionLookup): boolean | StatusError | Promise<boolean | StatusError> {
  const ns = requestNamespace(a);
  if (!ns && !isNamespaces(a.type)) return true;
  if ('error' in s) return internal(s.error);
  if (s.everything) return true;
  if (isNamespaces(a.type) && !a.subresource && a.operation !== 'DELETE') return s.matches(labelsOf(a.object));
  return lookup.getNamespace(ns).then((found) => (found ? s.matches(labelsOf(found)) : notFound({ group: '', resource: 'namespaces', name: ns })));
}

/** matchConditions after everything else: false skips; errors skip under Ignore and refuse with 403 under Fail. */
function conditionsDecide(invocation: Invocation, a: AdmissionAttributes): Invocation | undefined {
  const matched = conditionsMatch(invocation.hook.matchConditions, invocation, a);
  if (matched === true) return invocation;
  if (matched === false || invocation.hook.failurePolicy === 'Ignore') return undefined;
  throw forbidden({ group: a.type.group, resource: a.type.resource, name: a.name }, matched.error);
}

/**
 * The invocation of `hook` for this request, undefined when it is not to be called; throws the
 * error of a selector that cannot be evaluated. A promise only when the namespace had to be read.
 */
export function invocationFor(hook: Hook, a: AdmissionAttributes, lookup: AdmissionLookup, equivalents: readonly ResourceType[]):
  Invocation | undefined | Promise<Invocation | undefined> {
  const invocation = matchRules(hook, a, equivalents);
  if (!invocation) return undefined;
  const objectMatch = objectSelects(hook.objectSelector, a);
  if (objectMatch === false) return undefined;
  const decide = (nsMatch: boolean | StatusError): Invocation | undefined => {
    if (nsMatch === false) return undefined;
    if (nsMatch instanceof StatusError) throw nsMatch;
    if (objectMatch instanceof StatusError) throw objectMatch;
    return hook.matchConditions.length === 0 ? invocation : conditionsDecide(invocation, a);
  };
  const nsMatch = namespaceSelects(hook.namespaceSelector, a, lookup);
  return nsMatch instanceof Promise ? nsMatch.then(decide) : decide(nsMatch);
}
