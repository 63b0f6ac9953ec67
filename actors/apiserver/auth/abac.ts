// The ABAC authorizer (--authorization-mode ABAC): a policy file read once at start, one JSON
// policy per line, blank lines and `#` comments skipped. A line is either
// `{"apiVersion":"abac.authorization.kubernetes.io/v1beta1","kind":"Policy","spec":{...}}` or the
// legacy unversioned form with the fields at the top (no apiVersion). As the real authorizer:
// - a policy matches a user when each of `user` and `group` it sets matches (the user's name, one
//   of its groups); one that sets neither matches nobody, and `*` in either stands for the group
//   system:authenticated, so anonymous requests are matched only by naming system:unauthenticated;
// - `readonly` policies allow get, list and watch only;
// - a resource request needs `namespace`, `resource` and `apiGroup` to match (each `*` or equal;
//   the empty string is the core group, or a cluster-scoped request); subresources and names are
//   not looked at;
// - a non-resource request needs `nonResourcePath`: `*`, the path itself, or a prefix ending in `*`;
// - legacy lines read an unset user and group as system:authenticated, an unset namespace or
//   resource as `*`, match every API group, and with neither namespace nor resource every path.
// A policy that matches allows; otherwise "No policy matched." is no opinion. A line that does
// not read stops the server from starting, naming the file and the line.
import { AUTHENTICATED } from './users.ts';
import { readFileSync } from 'node:fs';
import type { AuthorizationAttributes, Authorizer, Decision, RuleSet, UserInfo } from './authorizer.ts';
import type { PolicyRule } from './rbac-rules.ts';

/** A policy after conversion: every field set, legacy lines in the versioned meaning. */
export interface AbacPolicy {
  user: string;
  group: string;
  readonly: boolean;
  apiGroup: string;
  resource: string;
  namespace: string;
  nonResourcePath: string;
}

const GROUP_VERSION = 'abac.authorization.kubernetes.io/v1beta1';
const LEGACY_GROUP_VERSION = 'abac.authorization.kubernetes.io/v0';
const ALL = '*';
const READ_VERBS = ['get', 'list', 'watch'];

type Fields = Record<string, unknown>;

/** A string field (absent or null: empty); anything else is the line's error. */
function text(fields: Fields, name: string): string {
  const v = fields[name];
  if (v === undefined || v === null) return '';
  if (typeof v !== 'string') throw new Error(`${name} must be a string, got ${JSON.stringify(v)}`);
  return v;
}

function flag(fields: Fields, name: string): boolean {
  const v = fields[name];
  if (v === undefined || v === null) return false;
  if (typeof v !== 'boolean') throw new Error(`${name} must be true or false, got ${JSON.stringify(v)}`);
  return v;
}

function object(v: unknown, what: string): Fields {
  if (v === undefined || v === null) return {};
  if (typeof v !== 'object' || Array.isArray(v)) throw new Error(`${what} must be an object`);
  return v as Fields;
}

/** `*` as user or group means every authenticated user, in both forms. */
function anyAuthenticated(p: AbacPolicy): AbacPolicy {
  return p.user === ALL || p.group === ALL ? { ...p, user: '', group: AUTHENTICATED } : p;
}

function versioned(spec: Fields): AbacPolicy {
  return anyAuthenticated({ user: text(spec, 'user'), group: text(spec, 'group'), readonly: flag(spec, 'readonly'), apiGroup: text(spec, 'apiGroup'),
    resource: text(spec, 'resource'), namespace: text(spec, 'namespace'), nonResourcePath: text(spec, 'nonResourcePath') });
}

function legacy(fields: Fields): AbacPolicy {
  const user = text(fields, 'user');
  const group = text(fields, 'group');
  const namespace = text(fields, 'namespace');
  const resource = text(fields, 'resource');
  return anyAuthenticated({ user, group: !user && !group ? AUTHENTICATED : group, readonly: flag(fields, 'readonly'), apiGroup: ALL,
    resource: resource || ALL, namespace: namespace || ALL, nonResourcePath: !namespace && !resource ? ALL : '' });
}

/** One line's policy; throws why it does not read. */
export function parsePolicyLine(line: string): AbacPolicy {
  let doc: unknown;
  try {
    doc = JSON.parse(line);
  } catch (e) {
    throw new Error(`not JSON: ${(e as Error).message}`);
  }
  const fields = object(doc, 'a policy');
  const apiVersion = text(fields, 'apiVersion');
  if (apiVersion === '') return legacy(fields);
  if (apiVersion !== GROUP_VERSION && apiVersion !== LEGACY_GROUP_VERSION)
    throw new Error(`apiVersion ${JSON.stringify(apiVersion)} is not ${GROUP_VERSION} (or the legacy ${LEGACY_GROUP_VERSION})`);
  if (text(fields, 'kind') !== 'Policy') throw new Error(`kind must be Policy, got ${JSON.stringify(fields.kind ?? '')}`);
  return apiVersion === GROUP_VERSION ? versioned(object(fields.spec, 'spec')) : legacy(fields);
}

/** The policies of a file's text; `source` names it in errors, which give the line's number and text. */
export function parsePolicyFile(content: string, source: string): AbacPolicy[] {
  const policies: AbacPolicy[] = [];
  content.split(/\r?\n/).forEach((line, i) => {
    const trimmed = line.trim();
    if (trimmed === '' || trimmed.startsWith('#')) return;
    try {
      policies.push(parsePolicyLine(line));
    } catch (e) {
      throw new Error(`error reading policy file ${source}, line ${i + 1}: ${trimmed}: ${(e as Error).message}`);
    }
  });
  return policies;
}

export function loadPolicyFile(path: string): AbacAuthorizer {
  let content: string;
  try {
    content = readFileSync(path, 'utf8');
  } catch (e) {
    throw new Error(`error reading policy file ${path}: ${(e as Error).message}; --authorization-policy-file must name a readable file`);
  }
  return new AbacAuthorizer(parsePolicyFile(content, path));
}

function subjectMatches(p: AbacPolicy, user: UserInfo): boolean {
  let matched = false;
  if (p.user) {
    if (p.user !== ALL && p.user !== user.username) return false;
    matched = true;
  }
  if (p.group) {
    if (p.group !== ALL && !user.groups.includes(p.group)) return false;
    matched = true;
  }
  return matched;
}

const wildOr = (pattern: string, value: string) => pattern === ALL || pattern === value;

function pathMatches(pattern: string, path: string): boolean {
  if (pattern === ALL || pattern === path) return true;
  return pattern.endsWith(ALL) && path.startsWith(pattern.replace(/\*+$/, ''));
}

function matches(p: AbacPolicy, a: AuthorizationAttributes): boolean {
  if (!subjectMatches(p, a.user)) return false;
  if (p.readonly && !READ_VERBS.includes(a.verb)) return false;
  if (a.path !== undefined) return pathMatches(p.nonResourcePath, a.path);
  return wildOr(p.namespace, a.namespace ?? '') && wildOr(p.resource, a.resource ?? '') && wildOr(p.apiGroup, a.apiGroup ?? '');
}

const ALLOW: Decision = { decision: 'allow', reason: '' };
const NO_MATCH: Decision = { decision: 'noOpinion', reason: 'No policy matched.' };

export class AbacAuthorizer implements Authorizer {
  constructor(readonly policies: readonly AbacPolicy[]) {}

  authorize(a: AuthorizationAttributes): Decision {
    for (const p of this.policies) if (matches(p, a)) return ALLOW;
    return NO_MATCH;
  }

  /** The rules of the policies naming the user in `namespace` (or `*`), one per field, as the real RulesFor. */
  rulesFor(user: UserInfo, namespace: string): RuleSet {
    const resourceRules: PolicyRule[] = [];
    const nonResourceRules: PolicyRule[] = [];
    for (const p of this.policies) {
      if (!subjectMatches(p, user) || !wildOr(p.namespace, namespace)) continue;
      const verbs = p.readonly ? [...READ_VERBS] : [ALL];
      if (p.resource) resourceRules.push({ verbs, apiGroups: [p.apiGroup], resources: [p.resource] });
      if (p.nonResourcePath) nonResourceRules.push({ verbs, nonResourceURLs: [p.nonResourcePath] });
    }
    return { resourceRules, nonResourceRules, incomplete: false, errors: [] };
  }
}
