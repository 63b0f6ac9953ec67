// Validation of the rbac.authorization.k8s.io kinds (kubernetes pkg/apis/rbac/validation, 1.32):
// rules, aggregation rules, role references and subjects. Names of all four kinds are path
// segment names, which the strategy's name rule checks.
//
// Bad values are quoted as Go's field errors print them: a string as %q, a []string and a struct
// as %#v (`[]string{"/logs"}`, `rbac.RoleRef{APIGroup:"...", Kind:"Role", Name:"r"}`).
import type { StatusCause } from '../../api/status.ts';
import { isPlainObject, type KObject } from '../../api/types.ts';
import { validateName } from '../validation/names.ts';

export const RBAC_GROUP = 'rbac.authorization.k8s.io';

type Fields = Record<string, unknown>;

const required = (field: string, detail = ''): StatusCause =>
  ({ reason: 'FieldValueRequired', message: detail ? `Required value: ${detail}` : 'Required value', field });
const invalid = (field: string, shown: string, detail: string): StatusCause =>
  ({ reason: 'FieldValueInvalid', message: `Invalid value: ${shown}: ${detail}`, field });
const notSupported = (field: string, value: unknown, supported: readonly string[]): StatusCause => ({
  reason: 'FieldValueNotSupported',
  message: `Unsupported value: ${JSON.stringify(str(value))}: supported values: ${supported.map((s) => JSON.stringify(s)).join(', ')}`,
  field,
});

const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const strings = (v: unknown): string[] => (Array.isArray(v) ? v.map(str) : []);
const objects = (v: unknown): Fields[] => (Array.isArray(v) ? v.map((x) => (isPlainObject(x) ? x : {})) : []);
const goStrings = (v: string[]) => `[]string{${v.map((s) => JSON.stringify(s)).join(', ')}}`;
const fieldsOf = (v: unknown): Fields => (isPlainObject(v) ? v : {});

/** One rule: verbs always; nonResourceURLs alone and only cluster-wide; otherwise apiGroups and resources. */
function validatePolicyRule(rule: Fields, namespaced: boolean, path: string): StatusCause[] {
  const causes: StatusCause[] = [];
  if (strings(rule.verbs).length === 0) causes.push(required(`${path}.verbs`, 'verbs must contain at least one value'));
  const urls = strings(rule.nonResourceURLs);
  if (urls.length > 0) {
    if (namespaced) causes.push(invalid(`${path}.nonResourceURLs`, goStrings(urls), 'namespaced rules cannot apply to non-resource URLs'));
    if (strings(rule.apiGroups).length > 0 || strings(rule.resources).length > 0 || strings(rule.resourceNames).length > 0)
      causes.push(invalid(`${path}.nonResourceURLs`, goStrings(urls), 'rules cannot apply to both regular resources and non-resource URLs'));
    return causes;
  }
  if (strings(rule.apiGroups).length === 0) causes.push(required(`${path}.apiGroups`, 'resource rules must supply at least one api group'));
  if (strings(rule.resources).length === 0) causes.push(required(`${path}.resources`, 'resource rules must supply at least one resource'));
  return causes;
}

function validateRules(obj: KObject, namespaced: boolean): StatusCause[] {
  return objects(obj.rules).flatMap((rule, i) => validatePolicyRule(rule, namespaced, `rules[${i}]`));
}

export function validateRole(obj: KObject): StatusCause[] {
  return validateRules(obj, true);
}

/**
 * A cluster role's rules, and its aggregation rule when there is one: at least one selector.
 * The selectors' own contents are not checked here.
 */
export function validateClusterRole(obj: KObject): StatusCause[] {
  const causes = validateRules(obj, false);
  const aggregation = obj.aggregationRule;
  if (aggregation !== undefined && aggregation !== null && objects(fieldsOf(aggregation).clusterRoleSelectors).length === 0)
    causes.push(required('aggregationRule.clusterRoleSelectors', 'at least one clusterRoleSelector required if aggregationRule is non-nil'));
  return causes;
}

/** A subject of a binding: a User, Group or ServiceAccount; a ServiceAccount outside a namespace names its namespace. */
function validateSubject(subject: Fields, namespaced: boolean, path: string): StatusCause[] {
  const causes: StatusCause[] = [];
  const name = str(subject.name);
  const apiGroup = str(subject.apiGroup);
  if (!name) causes.push(required(`${path}.name`));
  switch (subject.kind) {
    case 'ServiceAccount':
      if (name) causes.push(...validateName(name, 'subdomain', `${path}.name`));
      if (apiGroup) causes.push(notSupported(`${path}.apiGroup`, apiGroup, ['']));
      if (!namespaced && !str(subject.namespace)) causes.push(required(`${path}.namespace`));
      break;
    case 'User':
    case 'Group':
      if (!name) causes.push(invalid(`${path}.name`, '""', `${subject.kind === 'User' ? 'user' : 'group'} name cannot be empty`));
      if (apiGroup !== RBAC_GROUP) causes.push(notSupported(`${path}.apiGroup`, apiGroup, [RBAC_GROUP]));
      break;
    default:
      causes.push(notSupported(`${path}.kind`, subject.kind, ['ServiceAccount', 'User', 'Group']));
  }
  return causes;
}

function validateBinding(obj: KObject, namespaced: boolean): StatusCause[] {
  const causes: StatusCause[] = [];
  const ref = fieldsOf(obj.roleRef);
  if (str(ref.apiGroup) !== RBAC_GROUP) causes.push(notSupported('roleRef.apiGroup', ref.apiGroup, [RBAC_GROUP]));
  const kinds = namespaced ? ['Role', 'ClusterRole'] : ['ClusterRole'];
  if (!kinds.includes(str(ref.kind))) causes.push(notSupported('roleRef.kind', ref.kind, kinds));
  const name = str(ref.name);
  if (!name) causes.push(required('roleRef.name'));
  else causes.push(...validateName(name, 'path', 'roleRef.name'));
  objects(obj.subjects).forEach((s, i) => causes.push(...validateSubject(s, namespaced, `subjects[${i}]`)));
  return causes;
}

export const validateRoleBinding = (obj: KObject): StatusCause[] => validateBinding(obj, true);
export const validateClusterRoleBinding = (obj: KObject): StatusCause[] => validateBinding(obj, false);

/** A binding's roleRef is fixed at creation: to bind another role, make another binding. */
export function validateBindingUpdate(obj: KObject, old: KObject): StatusCause[] {
  const ref = roleRefOf(obj);
  const before = roleRefOf(old);
  if (ref.apiGroup === before.apiGroup && ref.kind === before.kind && ref.name === before.name) return [];
  const shown = `rbac.RoleRef{APIGroup:${JSON.stringify(ref.apiGroup)}, Kind:${JSON.stringify(ref.kind)}, Name:${JSON.stringify(ref.name)}}`;
  return [invalid('roleRef', shown, 'cannot change roleRef')];
}

function roleRefOf(obj: KObject): { apiGroup: string; kind: string; name: string } {
  const ref = fieldsOf(obj.roleRef);
  return { apiGroup: str(ref.apiGroup), kind: str(ref.kind), name: str(ref.name) };
}
