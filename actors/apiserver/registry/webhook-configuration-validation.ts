// Validation of MutatingWebhookConfiguration and ValidatingWebhookConfiguration
// (kubernetes pkg/apis/admissionregistration/validation, 1.32): each webhook's fully qualified
// name, unique in its configuration; its rules (operations, groups, versions, resources with
// subresources, scope); failure, match and reinvocation policies; side effects (None or
// NoneOnDryRun in v1); timeout (1 to 30 s); selectors; exactly one of url and service; the
// AdmissionReview versions (at least one this server speaks); matchConditions (at most 64, named
// by unique qualified names, expressions that compile over object, oldObject and request). (The
// real update validation waives rules an object stored by an older server already broke; every
// object here was stored under these rules, so creates and updates are checked alike.)
//
// Bad values are quoted as Go's field errors print them: a string as %q, a list as %#v.
import { isDns1035Label } from '../../api/name-rules.ts';
import type { StatusCause } from '../../api/status.ts';
import { isPlainObject, type KObject } from '../../api/types.ts';
import { validateLabelSelector } from '../validation/label-selector.ts';
import { validateName, validateQualifiedKey } from '../validation/names.ts';
import { compileCondition } from '../admission/webhooks/match-conditions.ts';
import { validateWebhookService, validateWebhookUrl } from '../validation/webhook-client-config.ts';

type Fields = Record<string, unknown>;

/** The AdmissionReview versions this server sends, in the order validation names them. */
export const REVIEW_VERSIONS = ['v1', 'v1beta1'];
const FAILURE_POLICIES = ['Fail', 'Ignore'];
const MATCH_POLICIES = ['Equivalent', 'Exact'];
const NO_SIDE_EFFECTS = ['None', 'NoneOnDryRun'];
const OPERATIONS = ['*', 'CONNECT', 'CREATE', 'DELETE', 'UPDATE'];
const REINVOCATION_POLICIES = ['IfNeeded', 'Never'];
const SCOPES = ['*', 'Cluster', 'Namespaced'];
const MAX_MATCH_CONDITIONS = 64;

const required = (field: string, detail = ''): StatusCause =>
  ({ reason: 'FieldValueRequired', message: detail ? `Required value: ${detail}` : 'Required value', field });
const invalid = (field: string, shown: string, detail: string): StatusCause =>
  ({ reason: 'FieldValueInvalid', message: `Invalid value: ${shown}: ${detail}`, field });
const notSupported = (field: string, value: unknown, supported: readonly string[]): StatusCause =>
  ({ reason: 'FieldValueNotSupported', message: `Unsupported value: ${JSON.stringify(value)}: supported values: ${supported.map((s) => JSON.stringify(s)).join(', ')}`, field });

const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const strings = (v: unknown): string[] => (Array.isArray(v) ? v.map(str) : []);
const objects = (v: unknown): Fields[] => (Array.isArray(v) ? v.map((x) => (isPlainObject(x) ? x : {})) : []);
const goList = (type: string, v: string[]) => `[]${type}{${v.map((s) => JSON.stringify(s)).join(', ')}}`;

export const webhooksOf = (o: KObject): Fields[] => objects((o as Fields).webhooks);

export function validateWebhookConfiguration(obj: KObject, mutating: boolean): StatusCause[] {
  const causes: StatusCause[] = [];
  const names = new Set<string>();
  webhooksOf(obj).forEach((hook, i) => {
    const path = `webhooks[${i}]`;
    causes.push(...validateWebhook(hook, mutating, path), ...validateReviewVersions(hook.admissionReviewVersions, `${path}.admissionReviewVersions`));
    const name = str(hook.name);
    if (!name) return;
    if (names.has(name)) causes.push({ reason: 'FieldValueDuplicate', message: `Duplicate value: ${JSON.stringify(name)}`, field: `${path}.name` });
    names.add(name);
  });
  return causes;
}

function validateWebhook(hook: Fields, mutating: boolean, path: string): StatusCause[] {
  const causes = validateFullyQualifiedName(str(hook.name), `${path}.name`);
  objects(hook.rules).forEach((rule, i) => causes.push(...validateRule(rule, `${path}.rules[${i}]`)));
  const check = (field: string, allowed: readonly string[]) => {
    if (hook[field] !== undefined && hook[field] !== null && !allowed.includes(str(hook[field]))) causes.push(notSupported(`${path}.${field}`, hook[field], allowed));
  };
  check('failurePolicy', FAILURE_POLICIES);
  check('matchPolicy', MATCH_POLICIES);
  if (hook.sideEffects === undefined || hook.sideEffects === null) causes.push(required(`${path}.sideEffects`, `must specify one of ${NO_SIDE_EFFECTS.join(', ')}`));
  else check('sideEffects', NO_SIDE_EFFECTS);
  const timeout = hook.timeoutSeconds;
  if (typeof timeout === 'number' && (timeout > 30 || timeout < 1))
    causes.push(invalid(`${path}.timeoutSeconds`, String(timeout), 'the timeout value must be between 1 and 30 seconds'));
  causes.push(...validateLabelSelector(hook.namespaceSelector, `${path}.namespaceSelector`));
  causes.push(...validateLabelSelector(hook.objectSelector, `${path}.objectSelector`));
  if (mutating) check('reinvocationPolicy', REINVOCATION_POLICIES);
  causes.push(...validateClientConfig(isPlainObject(hook.clientConfig) ? hook.clientConfig : {}, `${path}.clientConfig`));
  causes.push(...validateMatchConditions(objects(hook.matchConditions), `${path}.matchConditions`));
  return causes;
}

function validateMatchConditions(conditions: Fields[], path: string): StatusCause[] {
  const causes: StatusCause[] = conditions.length > MAX_MATCH_CONDITIONS
    ? [{ reason: 'FieldValueTooMany', message: `Too many: ${conditions.length}: must have at most ${MAX_MATCH_CONDITIONS} items`, field: path }] : [];
  const names = new Set<string>();
  conditions.forEach((c, i) => {
    const expression = str(c.expression).trim();
    if (!expression) causes.push(required(`${path}[${i}].expression`));
    else {
      const compiled = compileCondition('', expression);
      if (compiled.error) causes.push(invalid(`${path}[${i}].expression`, JSON.stringify(expression), compiled.error));
    }
    const name = str(c.name);
    if (!name) causes.push(required(`${path}[${i}].name`));
    else causes.push(...validateQualifiedKey(name, `${path}[${i}].name`));
    if (!name) return;
    if (names.has(name)) causes.push({ reason: 'FieldValueDuplicate', message: `Duplicate value: ${JSON.stringify(name)}`, field: `${path}[${i}].name` });
    names.add(name);
  });
  return causes;
}

/** utilvalidation.IsFullyQualifiedName: a DNS subdomain of at least three segments. */
function validateFullyQualifiedName(name: string, field: string): StatusCause[] {
  if (!name) return [required(field)];
  const problems = validateName(name, 'subdomain', field);
  if (problems.length > 0) return problems;
  return name.split('.').length < 3 ? [invalid(field, JSON.stringify(name), 'should be a domain with at least three segments separated by dots')] : [];
}

function validateRule(rule: Fields, path: string): StatusCause[] {
  const causes: StatusCause[] = [];
  const operations = strings(rule.operations);
  if (operations.length === 0) causes.push(required(`${path}.operations`));
  if (operations.length > 1 && operations.includes('*'))
    causes.push(invalid(`${path}.operations`, goList('admissionregistration.OperationType', operations), "if '*' is present, must not specify other operations"));
  operations.forEach((op, i) => {
    if (!OPERATIONS.includes(op)) causes.push(notSupported(`${path}.operations[${i}]`, op, OPERATIONS));
  });
  const groups = strings(rule.apiGroups);
  if (groups.length === 0) causes.push(required(`${path}.apiGroups`));
  if (groups.length > 1 && groups.includes('*')) causes.push(invalid(`${path}.apiGroups`, goList('string', groups), "if '*' is present, must not specify other API groups"));
  const versions = strings(rule.apiVersions);
  if (versions.length === 0) causes.push(required(`${path}.apiVersions`));
  if (versions.length > 1 && versions.includes('*')) causes.push(invalid(`${path}.apiVersions`, goList('string', versions), "if '*' is present, must not specify other API versions"));
  versions.forEach((v, i) => {
    if (v === '') causes.push(required(`${path}.apiVersions[${i}]`));
  });
  causes.push(...validateResources(strings(rule.resources), `${path}.resources`));
  if (rule.scope !== undefined && rule.scope !== null && !SCOPES.includes(str(rule.scope))) causes.push(notSupported(`${path}.scope`, rule.scope, SCOPES));
  return causes;
}

/** Resources with subresources: `x`, `x/y`, `x/*`, `*\/y`, `*`, `*\/*`, and no form that another one already covers. */
function validateResources(resources: string[], path: string): StatusCause[] {
  const causes = resources.length === 0 ? [required(path)] : [];
  const wildSub = new Set<string>();
  const wildRes = new Set<string>();
  let withoutSub = false;
  resources.forEach((resSub, i) => {
    if (resSub === '') return void causes.push(required(`${path}[${i}]`));
    const slash = resSub.indexOf('/');
    if (slash < 0) return void (withoutSub = resSub !== '*');
    const res = resSub.slice(0, slash);
    const sub = resSub.slice(slash + 1);
    if (wildSub.has(res)) causes.push(invalid(`${path}[${i}]`, JSON.stringify(resSub), `if '${res}/*' is present, must not specify ${resSub}`));
    if (wildRes.has(sub)) causes.push(invalid(`${path}[${i}]`, JSON.stringify(resSub), `if '*/${sub}' is present, must not specify ${resSub}`));
    if (sub === '*') wildSub.add(res);
    if (res === '*') wildRes.add(sub);
  });
  if (resources.length > 1 && resources.includes('*/*')) causes.push(invalid(path, goList('string', resources), "if '*/*' is present, must not specify other resources"));
  if (resources.includes('*') && withoutSub) causes.push(invalid(path, goList('string', resources), "if '*' is present, must not specify other resources without subresources"));
  return causes;
}

function validateClientConfig(cc: Fields, path: string): StatusCause[] {
  const hasUrl = cc.url !== undefined && cc.url !== null;
  const service = isPlainObject(cc.service) ? cc.service : undefined;
  if (hasUrl === (service !== undefined)) return [required(path, 'exactly one of url or service is required')];
  return service ? validateWebhookService(service, `${path}.service`) : validateWebhookUrl(str(cc.url), `${path}.url`);
}

function validateReviewVersions(value: unknown, path: string): StatusCause[] {
  const versions = strings(value);
  if (versions.length === 0) return [required(path, `must specify one of ${REVIEW_VERSIONS.join(', ')}`)];
  const causes: StatusCause[] = [];
  const seen = new Set<string>();
  versions.forEach((v, i) => {
    if (seen.has(v)) return void causes.push(invalid(`${path}[${i}]`, JSON.stringify(v), 'duplicate version'));
    seen.add(v);
    for (const why of isDns1035Label(v)) causes.push(invalid(`${path}[${i}]`, JSON.stringify(v), why));
  });
  if (!versions.some((v) => REVIEW_VERSIONS.includes(v)))
    causes.push(invalid(path, goList('string', versions), `must include at least one of ${REVIEW_VERSIONS.join(', ')}`));
  return causes;
}
