// Validation of the flowcontrol.apiserver.k8s.io/v1 kinds (kubernetes pkg/apis/flowcontrol/validation,
// 1.32): a FlowSchema's precedence, distinguisher, priority level reference, subjects and rules; a
// PriorityLevelConfiguration's type, shares, percentages and queuing (shuffle sharding must fit in
// 60 bits of hash); both kinds' status conditions; and the mandatory `exempt` and `catch-all`,
// whose spec is fixed (the exempt level's `spec.exempt` aside). Names are DNS subdomains, which
// the strategy's name rule checks.
//
// Bad values are quoted as Go's field errors print them: a string as %q, a []string as %#v; a
// whole struct (a mandatory object's spec, a distinguisher method) is shown as its JSON here.
import type { StatusCause } from '../../api/status.ts';
import { isPlainObject, type KObject } from '../../api/types.ts';
import { CATCH_ALL, EXEMPT, mandatoryObject } from '../flowcontrol/bootstrap.ts';
import { requiredEntropyBits, MAX_HASH_BITS } from '../flowcontrol/shuffle-sharding.ts';
import { validateName } from '../validation/names.ts';
import { deepEqual } from './deep-equal.ts';

type Fields = Record<string, unknown>;

const MAX_MATCHING_PRECEDENCE = 10000;
const MAX_QUEUES = 10_000_000;
const SUPPORTED_VERBS = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'proxy', 'update', 'watch'];
const NS_INTRO = "each member of this list must be '*' or a DNS-1123 label; ";

const required = (field: string, detail = ''): StatusCause =>
  ({ reason: 'FieldValueRequired', message: detail ? `Required value: ${detail}` : 'Required value', field });
const invalid = (field: string, shown: string, detail: string): StatusCause =>
  ({ reason: 'FieldValueInvalid', message: `Invalid value: ${shown}: ${detail}`, field });
const forbidden = (field: string, detail: string): StatusCause => ({ reason: 'FieldValueForbidden', message: `Forbidden: ${detail}`, field });
const notSupported = (field: string, shown: string, supported: readonly string[]): StatusCause =>
  ({ reason: 'FieldValueNotSupported', message: `Unsupported value: ${shown}: supported values: ${supported.map((s) => JSON.stringify(s)).join(', ')}`, field });

const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const num = (v: unknown): number => (typeof v === 'number' ? v : 0);
const strings = (v: unknown): string[] => (Array.isArray(v) ? v.map(str) : []);
const objects = (v: unknown): Fields[] => (Array.isArray(v) ? v.map((x) => (isPlainObject(x) ? x : {})) : []);
const fieldsOf = (v: unknown): Fields | undefined => (isPlainObject(v) ? v : undefined);
const goStrings = (v: string[]) => `[]string{${v.map((s) => JSON.stringify(s)).join(', ')}}`;
/** A name check's messages, re-aimed at `field` (the names.ts rules word them for metadata.name). */
const nameProblems = (name: string, rule: 'label' | 'subdomain', field: string, intro = '') =>
  validateName(name, rule, field).map((c) => ({ ...c, message: (c.message ?? '').replace(/^(Invalid value: "[^"]*": )/, `$1${intro}`) }));

/** A list of verbs, API groups, resources, namespaces or URLs: "*" alone or not at all. */
function wildcardAlone(list: string[], field: string, what: string): StatusCause[] {
  return list.length > 1 && list.includes('*') ? [invalid(field, goStrings(list), `if '*' is present, must not specify other ${what}`)] : [];
}

function validateVerbs(verbs: string[], field: string): StatusCause[] {
  if (verbs.length === 0) return [required(field, 'verbs must contain at least one value')];
  if (verbs.includes('*')) return wildcardAlone(verbs, field, 'verbs');
  return verbs.every((v) => SUPPORTED_VERBS.includes(v)) ? [] : [notSupported(field, goStrings(verbs), SUPPORTED_VERBS)];
}

function validateResourceRule(rule: Fields, path: string): StatusCause[] {
  const causes = validateVerbs(strings(rule.verbs), `${path}.verbs`);
  const groups = strings(rule.apiGroups);
  if (groups.length === 0) causes.push(required(`${path}.apiGroups`, 'resource rules must supply at least one api group'));
  else causes.push(...wildcardAlone(groups, `${path}.apiGroups`, 'api groups'));
  const resources = strings(rule.resources);
  if (resources.length === 0) causes.push(required(`${path}.resources`, 'resource rules must supply at least one resource'));
  else causes.push(...wildcardAlone(resources, `${path}.resources`, 'resources'));
  const namespaces = strings(rule.namespaces);
  if (namespaces.length === 0 && rule.clusterScope !== true)
    causes.push(required(`${path}.namespaces`, 'resource rules that are not cluster scoped must supply at least one namespace'));
  else if (namespaces.includes('*')) causes.push(...wildcardAlone(namespaces, `${path}.namespaces`, 'namespaces'));
  else namespaces.forEach((ns, i) => causes.push(...nameProblems(ns, 'label', `${path}.namespaces[${i}]`, NS_INTRO)));
  return causes;
}

/** A leading slash, no blanks, no "//", and "*" only as a final "/*" (ValidateNonResourceURLPath). */
function urlProblem(url: string): string | undefined {
  if (url === '') return 'must not be empty';
  if (url === '/') return undefined;
  if (!url.startsWith('/')) return 'must start with slash';
  if (url.includes(' ')) return 'must not contain white-space';
  if (url.includes('//')) return 'must not contain double slash';
  const stars = url.split('*').length - 1;
  return stars > 1 || (stars === 1 && !url.endsWith('/*')) ? 'wildcard can only do suffix matching' : undefined;
}

function validateNonResourceRule(rule: Fields, path: string): StatusCause[] {
  const causes = validateVerbs(strings(rule.verbs), `${path}.verbs`);
  const urls = strings(rule.nonResourceURLs);
  if (urls.length === 0) causes.push(required(`${path}.nonResourceURLs`, 'nonResourceURLs must contain at least one value'));
  else if (urls.includes('*')) causes.push(...wildcardAlone(urls, `${path}.nonResourceURLs`, 'non-resource URLs'));
  else urls.forEach((u, i) => {
    const problem = urlProblem(u);
    if (problem) causes.push(invalid(`${path}.nonResourceURLs[${i}]`, JSON.stringify(u), problem));
  });
  return causes;
}

const SUBJECT_KINDS = ['Group', 'ServiceAccount', 'User'];
const MEMBER = { User: 'user', Group: 'group', ServiceAccount: 'serviceAccount' } as const;

function validateSubject(subject: Fields, path: string): StatusCause[] {
  const kind = str(subject.kind);
  if (!(kind in MEMBER)) return [notSupported(`${path}.kind`, JSON.stringify(kind), SUBJECT_KINDS)];
  const own = MEMBER[kind as keyof typeof MEMBER];
  const causes: StatusCause[] = [];
  const body = fieldsOf(subject[own]);
  if (!body) causes.push(required(`${path}.${own}`, `${own} is required when subject kind is '${kind}'`));
  else if (kind === 'ServiceAccount') {
    const name = str(body.name);
    if (!name) causes.push(required(`${path}.serviceAccount.name`));
    else if (name !== '*') causes.push(...nameProblems(name, 'subdomain', `${path}.serviceAccount.name`));
    const ns = str(body.namespace);
    if (!ns) causes.push(required(`${path}.serviceAccount.namespace`, 'must specify namespace for service account'));
    else causes.push(...nameProblems(ns, 'label', `${path}.serviceAccount.namespace`));
  } else if (!str(body.name)) causes.push(required(`${path}.${own}.name`));
  for (const [other, member] of Object.entries(MEMBER))
    if (other !== kind && subject[member] !== undefined && subject[member] !== null)
      causes.push(forbidden(`${path}.${member}`, `${member} is forbidden when subject kind is not '${other}'`));
  return causes;
}

function validateRules(rules: Fields, path: string): StatusCause[] {
  const subjects = objects(rules.subjects);
  const causes = subjects.length === 0 ? [required(`${path}.subjects`, 'subjects must contain at least one value')]
    : subjects.flatMap((s, i) => validateSubject(s, `${path}.subjects[${i}]`));
  const resourceRules = objects(rules.resourceRules);
  const nonResourceRules = objects(rules.nonResourceRules);
  if (resourceRules.length === 0 && nonResourceRules.length === 0)
    causes.push(required(path, 'at least one of resourceRules and nonResourceRules has to be non-empty'));
  resourceRules.forEach((r, i) => causes.push(...validateResourceRule(r, `${path}.resourceRules[${i}]`)));
  nonResourceRules.forEach((r, i) => causes.push(...validateNonResourceRule(r, `${path}.nonResourceRules[${i}]`)));
  return causes;
}

/** Condition types are unique and not empty. */
function validateConditions(obj: KObject): StatusCause[] {
  const causes: StatusCause[] = [];
  const seen = new Set<string>();
  objects(fieldsOf(obj.status)?.conditions).forEach((c, i) => {
    const type = str(c.type);
    if (seen.has(type)) causes.push({ reason: 'FieldValueDuplicate', message: `Duplicate value: ${JSON.stringify(type)}`, field: `status.conditions[${i}].type` });
    seen.add(type);
    if (!type) causes.push(required(`status.conditions[${i}].type`, 'must not be empty'));
  });
  return causes;
}

export function validateFlowSchema(fs: KObject): StatusCause[] {
  const spec = fieldsOf(fs.spec) ?? {};
  const causes: StatusCause[] = [];
  const precedence = num(spec.matchingPrecedence);
  if (precedence <= 0) causes.push(invalid('spec.matchingPrecedence', String(precedence), 'must be a positive value'));
  if (precedence > MAX_MATCHING_PRECEDENCE) causes.push(invalid('spec.matchingPrecedence', String(precedence), `must not be greater than ${MAX_MATCHING_PRECEDENCE}`));
  if (precedence === 1 && fs.metadata.name !== EXEMPT)
    causes.push(invalid('spec.matchingPrecedence', '1', "only the schema named 'exempt' may have matchingPrecedence 1"));
  const method = fieldsOf(spec.distinguisherMethod);
  if (method && method.type !== 'ByUser' && method.type !== 'ByNamespace')
    causes.push(notSupported('spec.distinguisherMethod.type', JSON.stringify(method), ['ByNamespace', 'ByUser']));
  const level = str(fieldsOf(spec.priorityLevelConfiguration)?.name);
  if (!level) causes.push(required('spec.priorityLevelConfiguration.name', 'must reference a priority level'));
  else causes.push(...nameProblems(level, 'subdomain', 'spec.priorityLevelConfiguration.name'));
  objects(spec.rules).forEach((r, i) => causes.push(...validateRules(r, `spec.rules[${i}]`)));
  const mandatory = mandatoryObject('FlowSchema', fs.metadata.name);
  if (mandatory && !deepEqual(fs.spec, mandatory.spec))
    causes.push(invalid('spec', JSON.stringify(fs.spec), `spec of '${fs.metadata.name}' must equal the fixed value`));
  return [...causes, ...validateConditions(fs)];
}

/** A share count and a percentage, as both kinds of level have them. */
function validateShares(level: Fields, path: string): StatusCause[] {
  const causes: StatusCause[] = [];
  const shares = level.nominalConcurrencyShares;
  if (typeof shares === 'number' && shares < 0) causes.push(invalid(`${path}.nominalConcurrencyShares`, String(shares), 'must be a non-negative integer'));
  const lendable = level.lendablePercent;
  if (typeof lendable === 'number' && (lendable < 0 || lendable > 100))
    causes.push(invalid(`${path}.lendablePercent`, String(lendable), 'must be between 0 and 100, inclusive'));
  return causes;
}

function validateQueuing(q: Fields, path: string): StatusCause[] {
  const causes: StatusCause[] = [];
  const limit = num(q.queueLengthLimit);
  if (limit <= 0) causes.push(invalid(`${path}.queueLengthLimit`, String(limit), 'must be positive'));
  const queues = num(q.queues);
  const hand = num(q.handSize);
  if (queues <= 0) causes.push(invalid(`${path}.queues`, String(queues), 'must be positive'));
  else if (queues > MAX_QUEUES) causes.push(invalid(`${path}.queues`, String(queues), `must not be greater than ${MAX_QUEUES}`));
  if (hand <= 0) causes.push(invalid(`${path}.handSize`, String(hand), 'must be positive'));
  else if (hand > queues) causes.push(invalid(`${path}.handSize`, String(hand), `should not be greater than queues (${queues})`));
  else if (requiredEntropyBits(queues, hand) > MAX_HASH_BITS)
    causes.push(invalid(`${path}.handSize`, String(hand), `required entropy bits of deckSize ${queues} and handSize ${hand} should not be greater than ${MAX_HASH_BITS}`));
  return causes;
}

function validateLimited(limited: Fields): StatusCause[] {
  const path = 'spec.limited';
  const causes = validateShares(limited, path);
  const borrowing = limited.borrowingLimitPercent;
  if (typeof borrowing === 'number' && borrowing < 0)
    causes.push(invalid(`${path}.borrowingLimitPercent`, String(borrowing), 'if specified, must be a non-negative integer'));
  const response = fieldsOf(limited.limitResponse) ?? {};
  const queuing = fieldsOf(response.queuing);
  switch (response.type) {
    case 'Reject':
      if (queuing) causes.push(forbidden(`${path}.limitResponse.queuing`, 'must be nil if limited.limitResponse.type is not Limited'));
      break;
    case 'Queue':
      if (!queuing) causes.push(required(`${path}.limitResponse.queuing`, 'must not be empty if limited.limitResponse.type is Limited'));
      else causes.push(...validateQueuing(queuing, `${path}.limitResponse.queuing`));
      break;
    default:
      causes.push(notSupported(`${path}.limitResponse.type`, JSON.stringify(str(response.type)), ['Queue', 'Reject']));
  }
  return causes;
}

/** The mandatory levels' spec is fixed, but for what `spec.exempt` says of the exempt level. */
function mandatoryLevel(pl: KObject): StatusCause[] {
  const mandatory = mandatoryObject('PriorityLevelConfiguration', pl.metadata.name);
  if (!mandatory) return [];
  const name = pl.metadata.name;
  const spec = fieldsOf(pl.spec) ?? {};
  const fixed = mandatory.spec as Fields;
  if (name === CATCH_ALL) return deepEqual(spec, fixed) ? [] : [invalid('spec', JSON.stringify(spec), `spec of '${name}' must equal the fixed value`)];
  return deepEqual({ ...spec, exempt: fixed.exempt }, fixed) ? []
    : [invalid('spec', JSON.stringify(spec), `spec of '${name}' except the 'spec.exempt' field must equal the fixed value`)];
}

export function validatePriorityLevel(pl: KObject): StatusCause[] {
  const spec = fieldsOf(pl.spec) ?? {};
  const type = str(spec.type);
  const causes: StatusCause[] = [];
  if ((pl.metadata.name === EXEMPT) !== (type === 'Exempt'))
    causes.push(invalid('spec.type', JSON.stringify(type), "type must be 'Exempt' if and only if name is 'exempt'"));
  const limited = fieldsOf(spec.limited);
  const exempt = fieldsOf(spec.exempt);
  if (type === 'Exempt') {
    if (limited) causes.push(forbidden('spec.limited', 'must be nil if the type is not Limited'));
    if (exempt) causes.push(...validateShares(exempt, 'spec.exempt'));
  } else if (type === 'Limited') {
    if (exempt) causes.push(forbidden('spec.exempt', 'must be nil if the type is Limited'));
    if (!limited) causes.push(required('spec.limited', 'must not be empty when type is Limited'));
    else causes.push(...validateLimited(limited));
  } else causes.push(notSupported('spec.type', JSON.stringify(type), ['Exempt', 'Limited']));
  return [...causes, ...mandatoryLevel(pl), ...validateConditions(pl)];
}
