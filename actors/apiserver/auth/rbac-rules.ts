// RBAC's rule arithmetic over rbac.authorization.k8s.io/v1 PolicyRules: whether a rule allows a
// request, and whether one set of rules covers another (the escalation check on roles and
// bindings), by the real authorizer's matching: `*` matches anything, `*/sub` any resource's
// subresource `sub`, an empty resourceNames any name, and a non-resource URL ending in `*` a prefix.
import { goQuoted } from '../../api/status.ts';
import type { AuthorizationAttributes } from './authorizer.ts';

export interface PolicyRule {
  verbs: string[];
  apiGroups?: string[];
  resources?: string[];
  resourceNames?: string[];
  nonResourceURLs?: string[];
}

const ALL = '*';

/** The rules field of a Role or ClusterRole, read defensively: stored objects were validated, bootstrap ones are ours. */
export function rulesOf(role: object | undefined): PolicyRule[] {
  const rules = (role as { rules?: unknown } | undefined)?.rules;
  return Array.isArray(rules) ? (rules as PolicyRule[]) : [];
}

function has(list: readonly string[] | undefined, value: string): boolean {
  return list !== undefined && (list.includes(ALL) || list.includes(value));
}

function resourceMatches(rule: PolicyRule, resource: string, subresource: string | undefined): boolean {
  const resources = rule.resources ?? [];
  const combined = subresource ? `${resource}/${subresource}` : resource;
  for (const r of resources) {
    if (r === ALL || r === combined) return true;
    if (subresource && r === `*/${subresource}`) return true;
  }
  return false;
}

function urlMatches(patterns: readonly string[], path: string): boolean {
  for (const p of patterns) {
    if (p === ALL || p === path) return true;
    if (p.endsWith(ALL) && path.startsWith(p.slice(0, -1))) return true;
  }
  return false;
}

/** Whether `rule` allows the request: a resource rule a resource request, a non-resource rule a path. */
export function ruleAllows(rule: PolicyRule, a: AuthorizationAttributes): boolean {
  if (!has(rule.verbs, a.verb)) return false;
  if (a.path !== undefined) return urlMatches(rule.nonResourceURLs ?? [], a.path);
  if (!has(rule.apiGroups, a.apiGroup ?? '') || !resourceMatches(rule, a.resource ?? '', a.subresource)) return false;
  const names = rule.resourceNames ?? [];
  return names.length === 0 || (a.name !== undefined && a.name !== '' && names.includes(a.name));
}

/** One verb on one group's resource (and one name), or one verb on one URL. */
type Atom = { verb: string; group: string; resource: string; name?: string } | { verb: string; url: string };

function atomsOf(rule: PolicyRule): Atom[] {
  const out: Atom[] = [];
  for (const verb of rule.verbs ?? []) {
    for (const group of rule.apiGroups ?? [])
      for (const resource of rule.resources ?? []) {
        if (rule.resourceNames?.length) for (const name of rule.resourceNames) out.push({ verb, group, resource, name });
        else out.push({ verb, group, resource });
      }
    for (const url of rule.nonResourceURLs ?? []) out.push({ verb, url });
  }
  return out;
}

function covered(owner: PolicyRule, atom: Atom): boolean {
  if (!has(owner.verbs, atom.verb)) return false;
  if ('url' in atom) {
    const urls = owner.nonResourceURLs ?? [];
    return urls.some((p) => p === ALL || p === atom.url || (p.endsWith(ALL) && atom.url.startsWith(p.slice(0, -1))));
  }
  if (!has(owner.apiGroups, atom.group)) return false;
  const resources = owner.resources ?? [];
  const slash = atom.resource.indexOf('/');
  const resourceOk = resources.includes(ALL) || resources.includes(atom.resource)
    || (slash > 0 && resources.includes(`*/${atom.resource.slice(slash + 1)}`));
  if (!resourceOk) return false;
  const names = owner.resourceNames ?? [];
  return names.length === 0 || (atom.name !== undefined && names.includes(atom.name));
}

/** The parts of `wanted` that no rule of `owner` covers, compacted (verbs of one resource or URL together); empty when covered. */
export function uncovered(owner: readonly PolicyRule[], wanted: readonly PolicyRule[]): PolicyRule[] {
  const missing = new Map<string, PolicyRule>();
  for (const rule of wanted)
    for (const atom of atomsOf(rule)) {
      if (owner.some((o) => covered(o, atom))) continue;
      const key = 'url' in atom ? `url ${atom.url}` : `${atom.group} ${atom.resource} ${atom.name ?? ''}`;
      const m = missing.get(key);
      if (m) {
        if (!m.verbs.includes(atom.verb)) m.verbs.push(atom.verb);
      } else if ('url' in atom) missing.set(key, { verbs: [atom.verb], nonResourceURLs: [atom.url] });
      else missing.set(key, { verbs: [atom.verb], apiGroups: [atom.group], resources: [atom.resource], ...(atom.name !== undefined ? { resourceNames: [atom.name] } : {}) });
    }
  return [...missing.values()];
}

/** A rule as the real server prints it in escalation errors: `{APIGroups:["apps"], Resources:["deployments"], Verbs:["get"]}`. */
export function compactString(rule: PolicyRule): string {
  const parts: string[] = [];
  if (rule.apiGroups?.length) parts.push(`APIGroups:${goQuoted(rule.apiGroups)}`);
  if (rule.resources?.length) parts.push(`Resources:${goQuoted(rule.resources)}`);
  if (rule.nonResourceURLs?.length) parts.push(`NonResourceURLs:${goQuoted(rule.nonResourceURLs)}`);
  if (rule.resourceNames?.length) parts.push(`ResourceNames:${goQuoted(rule.resourceNames)}`);
  parts.push(`Verbs:${goQuoted(rule.verbs)}`);
  return `{${parts.join(', ')}}`;
}
