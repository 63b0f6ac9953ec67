// Which FlowSchema a request matches (apiserver pkg/util/flowcontrol/rule.go): a schema matches
// when one of its rules does; a rule when one of its subjects names the user (by name, by group,
// or as a service account) and, for a resource request, one of its resource rules matches the
// verb, API group, resource (with "/subresource") and namespace (clusterScope for requests that
// name none), or, for any other path, one of its non-resource rules matches the verb and the path
// (a rule path "/x" or "/x/*" also matches everything under "/x/"). "*" alone matches everything.
// Each schema is compiled once into sets, and which rules' subjects name a user is worked out once
// per user (rulesOfUser), so matching a request costs a few lookups per schema left.
import { isPlainObject, type KObject } from '../../api/types.ts';
import type { UserInfo } from '../auth/authorizer.ts';

/** What classification reads of a request, as the real RequestDigest. */
export interface RequestDigest {
  user: UserInfo;
  verb: string;
  /** Set for resource requests. */
  resource?: { apiGroup: string; resource: string; namespace: string };
  /** The path, for non-resource requests. */
  path: string;
}

type Fields = Record<string, unknown>;
/** undefined: "*", every value. */
type Match = ReadonlySet<string> | undefined;

interface ResourceRule { verbs: Match; apiGroups: Match; resources: Match; namespaces: Match; clusterScope: boolean }
interface PathRule { verbs: Match; all: boolean; exact: ReadonlySet<string>; prefixes: readonly string[] }
interface Subjects { anyone: boolean; users: ReadonlySet<string>; groups: ReadonlySet<string>; serviceAccountPrefixes: readonly string[] }
export interface PolicyRules { subjects: Subjects; resourceRules: ResourceRule[]; nonResourceRules: PathRule[] }

const SA_PREFIX = 'system:serviceaccount:';
const list = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
const objects = (v: unknown): Fields[] => (Array.isArray(v) ? v.filter(isPlainObject) : []);
const field = (v: unknown, key: string): Fields => {
  const f = isPlainObject(v) ? v[key] : undefined;
  return isPlainObject(f) ? f : {};
};
/** "*" alone means everything (validation allows it nowhere else). */
const matcher = (v: unknown): Match => {
  const l = list(v);
  return l.length === 1 && l[0] === '*' ? undefined : new Set(l);
};
const has = (m: Match, x: string) => m === undefined || m.has(x);

function compileSubjects(subjects: Fields[]): Subjects {
  const users = new Set<string>();
  const groups = new Set<string>();
  const serviceAccountPrefixes: string[] = [];
  let anyone = false;
  for (const s of subjects) {
    if (s.kind === 'User') {
      const name = field(s, 'user').name;
      if (name === '*') anyone = true;
      else if (typeof name === 'string') users.add(name);
    } else if (s.kind === 'Group') {
      const name = field(s, 'group').name;
      if (name === '*') anyone = true;
      else if (typeof name === 'string') groups.add(name);
    } else if (s.kind === 'ServiceAccount') {
      const sa = field(s, 'serviceAccount');
      if (typeof sa.namespace !== 'string' || typeof sa.name !== 'string') continue;
      if (sa.name === '*') serviceAccountPrefixes.push(`${SA_PREFIX}${sa.namespace}:`);
      else users.add(`${SA_PREFIX}${sa.namespace}:${sa.name}`);
    }
  }
  return { anyone, users, groups, serviceAccountPrefixes };
}

function compilePathRule(r: Fields): PathRule {
  const urls = list(r.nonResourceURLs);
  const exact = new Set<string>();
  const prefixes: string[] = [];
  for (const u of urls) {
    exact.add(u);
    const stem = u.endsWith('*') ? u.slice(0, -1) : u;
    prefixes.push(stem.endsWith('/') ? stem : `${stem}/`);
  }
  return { verbs: matcher(r.verbs), all: urls.includes('*'), exact, prefixes };
}

export function compileRules(spec: unknown): PolicyRules[] {
  return objects(isPlainObject(spec) ? spec.rules : undefined).map((rule) => ({
    subjects: compileSubjects(objects(rule.subjects)),
    resourceRules: objects(rule.resourceRules).map((r) => ({ verbs: matcher(r.verbs), apiGroups: matcher(r.apiGroups),
      resources: matcher(r.resources), namespaces: matcher(r.namespaces), clusterScope: r.clusterScope === true })),
    nonResourceRules: objects(rule.nonResourceRules).map(compilePathRule),
  }));
}

function subjectsMatch(s: Subjects, user: UserInfo): boolean {
  if (s.anyone || s.users.has(user.username)) return true;
  for (const g of user.groups) if (s.groups.has(g)) return true;
  for (const p of s.serviceAccountPrefixes) if (user.username.startsWith(p)) return true;
  return false;
}

function resourceRuleMatches(r: ResourceRule, d: RequestDigest, res: NonNullable<RequestDigest['resource']>): boolean {
  if (!has(r.verbs, d.verb) || !has(r.resources, res.resource) || !has(r.apiGroups, res.apiGroup)) return false;
  return res.namespace === '' ? r.clusterScope : has(r.namespaces, res.namespace);
}

function pathRuleMatches(r: PathRule, d: RequestDigest): boolean {
  if (!has(r.verbs, d.verb)) return false;
  if (r.all || r.exact.has(d.path)) return true;
  return r.prefixes.some((p) => d.path.startsWith(p));
}

/** The rules whose subjects name the user: what is left to match for each of its requests. */
export function rulesOfUser(rules: readonly PolicyRules[], user: UserInfo): PolicyRules[] {
  return rules.filter((r) => subjectsMatch(r.subjects, user));
}

/** Whether one of these rules, whose subjects name the user, matches the request. */
export function requestMatches(rules: readonly PolicyRules[], d: RequestDigest): boolean {
  const res = d.resource;
  for (const rule of rules)
    if (res ? rule.resourceRules.some((r) => resourceRuleMatches(r, d, res)) : rule.nonResourceRules.some((r) => pathRuleMatches(r, d))) return true;
  return false;
}

/** A FlowSchema as classification uses it. */
export interface CompiledSchema {
  name: string;
  uid: string;
  level: string;
  matchingPrecedence: number;
  distinguisher: 'ByUser' | 'ByNamespace' | undefined;
  rules: PolicyRules[];
}

export function compileSchema(fs: KObject): CompiledSchema {
  const spec = isPlainObject(fs.spec) ? fs.spec : {};
  const method = field(spec, 'distinguisherMethod').type;
  return {
    name: fs.metadata.name ?? '',
    uid: fs.metadata.uid ?? '',
    level: String(field(spec, 'priorityLevelConfiguration').name ?? ''),
    matchingPrecedence: typeof spec.matchingPrecedence === 'number' ? spec.matchingPrecedence : 0,
    distinguisher: method === 'ByUser' || method === 'ByNamespace' ? method : undefined,
    rules: compileRules(spec),
  };
}

/** Matching order: lowest precedence first, then name (the real FlowSchemaSequence). */
export function bySchemaOrder(a: { matchingPrecedence: number; name: string }, b: { matchingPrecedence: number; name: string }): number {
  return a.matchingPrecedence - b.matchingPrecedence || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
}
