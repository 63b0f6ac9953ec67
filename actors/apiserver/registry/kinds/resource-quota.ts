// ResourceQuotas (core v1; pkg/registry/core/resourcequota, ValidateResourceQuota): hard limits
// per namespace in spec, what is enforced and used in status (written by the resource quota
// controller and by the ResourceQuota admission plugin), scopes that never change. Quantities are
// kept in canonical form, as the real server's decoding writes them back. printResourceQuota (1.32)
// shows NAME AGE REQUEST LIMIT, each `name: used/hard`, limits.* under LIMIT.
import { formatQuantity, toQuantity, ZERO_QUANTITY } from '../../../api/quantity.ts';
import { readResourceList, writeResourceList } from '../../../api/resource-lists.ts';
import type { StatusCause } from '../../../api/status.ts';
import { isPlainObject, type KObject } from '../../../api/types.ts';
import { defineKind } from '../kind.ts';
import { isIntegerResource, validateQuotaResourceName } from '../resource-names.ts';
import { age, ageColumn, column, fields, nameColumn, nameOf } from '../tables-format.ts';
import { invalid, required, type Spec } from './rules.ts';

const SCOPES = ['Terminating', 'NotTerminating', 'BestEffort', 'NotBestEffort', 'PriorityClass', 'CrossNamespacePodAffinity'];
const POD_COUNT = ['pods'];
const POD_COMPUTE = ['cpu', 'memory', 'limits.cpu', 'limits.memory', 'requests.cpu', 'requests.memory'];
const CONFLICTING = [['BestEffort', 'NotBestEffort'], ['Terminating', 'NotTerminating']];
const EXISTS_ONLY = ['BestEffort', 'NotBestEffort', 'Terminating', 'NotTerminating'];

/** IsResourceQuotaScopeValidForResource: which standard names a scope may limit. */
function scopeFitsResource(scope: string, name: string): boolean {
  if (scope === 'BestEffort') return POD_COUNT.includes(name);
  if (['Terminating', 'NotTerminating', 'NotBestEffort', 'PriorityClass'].includes(scope)) return POD_COUNT.includes(name) || POD_COMPUTE.includes(name);
  return true;
}

const STANDARD_FOR_SCOPES = new Set([...POD_COUNT, ...POD_COMPUTE, 'ephemeral-storage', 'requests.ephemeral-storage', 'limits.ephemeral-storage',
  'requests.storage', 'resourcequotas', 'services', 'replicationcontrollers', 'secrets', 'persistentvolumeclaims', 'configmaps',
  'services.nodeports', 'services.loadbalancers']);

// Go's %#v of what the real validation puts in the error, as field.Invalid prints structs and slices.
const goStrings = (type: string, list: unknown) =>
  Array.isArray(list) ? `${type}{${list.map((s) => JSON.stringify(String(s))).join(', ')}}` : `${type}(nil)`;
const goScopes = (scopes: unknown) => goStrings('[]core.ResourceQuotaScope', scopes);
const goSelector = (expressions: Spec[]) => `core.ScopeSelector{MatchExpressions:[]core.ScopedResourceSelectorRequirement{${expressions
  .map((r) => `core.ScopedResourceSelectorRequirement{ScopeName:${JSON.stringify(String(r?.scopeName ?? ''))}, Operator:${JSON.stringify(String(r?.operator ?? ''))}, Values:${goStrings('[]string', r?.values)}}`)
  .join(', ')}}}`;

/** Names and values of a hard or used list (ValidateResourceQuantityValue). */
function validateList(list: unknown, path: string): StatusCause[] {
  if (!isPlainObject(list)) return [];
  return Object.entries(list).flatMap(([name, text]) => {
    const field = `${path}[${name}]`;
    const causes = validateQuotaResourceName(name, field);
    const q = readResourceList({ [name]: text }).get(name);
    if (q && q.nanos < 0n) causes.push(invalid(field, JSON.stringify(formatQuantity(q)), 'must be greater than or equal to 0'));
    if (q && isIntegerResource(name) && q.nanos % 1_000_000_000n !== 0n) causes.push(invalid(field, JSON.stringify(formatQuantity(q)), 'must be an integer'));
    return causes;
  });
}

function validateScopes(spec: Spec): StatusCause[] {
  const scopes: unknown[] = Array.isArray(spec.scopes) ? spec.scopes : [];
  const hard = Object.keys(fields(spec.hard)).filter((n) => STANDARD_FOR_SCOPES.has(n)).sort();
  const causes: StatusCause[] = [];
  for (const scope of scopes) {
    if (!SCOPES.includes(String(scope))) causes.push(invalid('spec.scopes', goScopes(spec.scopes), 'unsupported scope'));
    for (const name of hard) if (!scopeFitsResource(String(scope), name)) causes.push(invalid('spec.scopes', goScopes(spec.scopes), 'unsupported scope applied to resource'));
  }
  for (const pair of CONFLICTING) if (pair.every((s) => scopes.includes(s))) causes.push(invalid('spec.scopes', goScopes(spec.scopes), 'conflicting scopes'));
  return causes;
}

function validateScopeSelector(spec: Spec): StatusCause[] {
  const expressions = Array.isArray(fields(spec.scopeSelector).matchExpressions) ? fields(spec.scopeSelector).matchExpressions as Spec[] : [];
  const path = 'spec.scopeSelector.matchExpressions';
  const hard = Object.keys(fields(spec.hard)).filter((n) => STANDARD_FOR_SCOPES.has(n)).sort();
  const causes: StatusCause[] = [];
  for (const req of expressions) {
    const [scope, operator, values] = [String(req?.scopeName ?? ''), String(req?.operator ?? ''), Array.isArray(req?.values) ? req.values : []];
    if (!SCOPES.includes(scope)) causes.push(invalid(`${path}.scopeName`, JSON.stringify(scope), 'unsupported scope'));
    for (const name of hard) if (!scopeFitsResource(scope, name)) causes.push(invalid(path, goSelector(expressions), 'unsupported scope applied to resource'));
    if (EXISTS_ONLY.includes(scope) && operator !== 'Exists')
      causes.push(invalid(`${path}.operator`, JSON.stringify(operator), "must be 'Exist' only operator when scope is any of ResourceQuotaScopeTerminating, ResourceQuotaScopeNotTerminating, ResourceQuotaScopeBestEffort and ResourceQuotaScopeNotBestEffort"));
    if (operator === 'In' || operator === 'NotIn') {
      if (values.length === 0) causes.push(required(`${path}.values`, "must be at least one value when `operator` is 'In' or 'NotIn' for scope selector"));
    } else if (operator === 'Exists' || operator === 'DoesNotExist') {
      if (values.length) causes.push(invalid(`${path}.values`, `[]string{${values.map((v) => JSON.stringify(String(v))).join(', ')}}`, "must be no value when `operator` is 'Exist' or 'DoesNotExist' for scope selector"));
    } else causes.push(invalid(`${path}.operator`, JSON.stringify(operator), 'not a valid selector operator'));
  }
  const scopes = expressions.map((r) => String(r?.scopeName));
  // The real check prints spec.scopes here, not the selector.
  for (const pair of CONFLICTING) if (pair.every((s) => scopes.includes(s))) causes.push(invalid(path, goScopes(spec.scopes), 'conflicting scopes'));
  return causes;
}

function validate(obj: KObject): StatusCause[] {
  const spec = fields(obj.spec);
  const status = fields(obj.status);
  return [...validateList(spec.hard, 'spec.hard'), ...validateScopes(spec), ...validateScopeSelector(spec),
    ...validateList(status.hard, 'status.hard'), ...validateList(status.used, 'status.used')];
}

function validateUpdate(obj: KObject, old: KObject): StatusCause[] {
  const scopes = (o: KObject) => (Array.isArray(fields(o.spec).scopes) ? fields(o.spec).scopes as unknown[] : []);
  const [now, was] = [new Set(scopes(obj).map(String)), new Set(scopes(old).map(String))];
  if (now.size === was.size && [...now].every((s) => was.has(s))) return [];
  return [invalid('spec.scopes', goScopes(fields(obj.spec).scopes), 'field is immutable')];
}

/** Quantities written back in canonical form, as a decode and encode by the real server leaves them. */
function canonical(list: unknown): unknown {
  return isPlainObject(list) ? { ...list, ...writeResourceList(readResourceList(list)) } : list;
}

function defaults(quota: KObject): void {
  if (isPlainObject(quota.spec) && quota.spec.hard !== undefined) quota.spec = { ...quota.spec, hard: canonical(quota.spec.hard) };
  if (isPlainObject(quota.status)) quota.status = { ...quota.status, hard: canonical(quota.status.hard), used: canonical(quota.status.used) };
}

/** The REQUEST and LIMIT cells: `name: used/hard`, names sorted, limits.* in the second. */
function usageCells(quota: KObject): [string, string] {
  const hard = fields(fields(quota.status).hard);
  const used = fields(fields(quota.status).used);
  const [request, limit]: string[][] = [[], []];
  for (const name of Object.keys(hard).sort()) {
    const show = (v: unknown) => formatQuantity(typeof v === 'string' || typeof v === 'number' ? toQuantity(v) : ZERO_QUANTITY);
    (name.split('.')[0] === 'limits' && name.includes('.') ? limit : request).push(`${name}: ${show(used[name])}/${show(hard[name])}`);
  }
  return [request.join(', '), limit.join(', ')];
}

export const resourceQuota = defineKind({
  nameRule: 'subdomain',
  hasStatus: true,
  hasGeneration: false,
  defaults,
  validate,
  validateUpdate,
  printer: {
    columns: [
      nameColumn,
      ageColumn,
      column('Request', 'Request represents a minimum amount of cpu/memory that a container may consume.'),
      column('Limit', 'Limits control the maximum amount of cpu/memory that a container may use independent of contention on the node.'),
    ],
    cells: (o, nowMs) => [nameOf(o), age(o, nowMs), ...usageCells(o)],
  },
});
