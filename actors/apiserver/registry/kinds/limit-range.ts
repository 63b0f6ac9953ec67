// LimitRanges (core v1; ValidateLimitRange, SetDefaults_LimitRangeItem): per namespace, the
// bounds and defaults the LimitRanger admission plugin applies to each Container, Pod or
// PersistentVolumeClaim. A Container item's default limit falls back to its max and its default
// request to the default limit, then to the min. Quantities are kept in canonical form. Printed as
// NAME CREATED AT (the default Table).
import { compareQuantities, formatQuantity, milliValue, unitValue, type Quantity } from '../../../api/quantity.ts';
import { readResourceList, writeResourceList, type ResourceList } from '../../../api/resource-lists.ts';
import type { StatusCause } from '../../../api/status.ts';
import { isPlainObject, type KObject } from '../../../api/types.ts';
import { defineKind } from '../kind.ts';
import { isOvercommitAllowed, validateContainerResourceName, validateResourceName } from '../resource-names.ts';
import { fields, list } from '../tables-format.ts';
import { duplicate, forbidden, invalid, required, type Spec } from './rules.ts';
import { validateQualifiedKey } from '../../validation/names.ts';

const LIMIT_TYPES = ['Pod', 'Container', 'PersistentVolumeClaim'];
const LISTS = ['max', 'min', 'default', 'defaultRequest', 'maxLimitRequestRatio'] as const;
/** Above this, Go compares whole units rather than milli-units (resource.MaxMilliValue). */
const MAX_MILLI_VALUE = 9_223_372_036_854_775n;

/** The item's lists, read as quantities. */
const listsOf = (item: Spec) => Object.fromEntries(LISTS.map((l) => [l, readResourceList(item[l])])) as Record<(typeof LISTS)[number], ResourceList>;

function defaultItem(item: Spec): Spec {
  const out: Spec = { ...item };
  for (const l of LISTS) if (isPlainObject(item[l])) out[l] = writeResourceList(readResourceList(item[l]));
  if (item.type !== 'Container') return out;
  const lists = listsOf(out);
  const fallBack = (into: ResourceList, from: ResourceList) => from.forEach((q, name) => into.has(name) || into.set(name, q));
  fallBack(lists.default, lists.max);
  fallBack(lists.defaultRequest, lists.default);
  fallBack(lists.defaultRequest, lists.min);
  if (lists.default.size) out.default = writeResourceList(lists.default);
  if (lists.defaultRequest.size) out.defaultRequest = writeResourceList(lists.defaultRequest);
  return out;
}

function defaults(lr: KObject): void {
  const spec = fields(lr.spec);
  if (Array.isArray(spec.limits)) lr.spec = { ...spec, limits: spec.limits.map((item) => (isPlainObject(item) ? defaultItem(item) : item)) };
}

const shown = (q: Quantity) => JSON.stringify(formatQuantity(q));

/** The comparisons between one resource's bounds and defaults in an item. */
function validateBounds(name: string, lists: ReturnType<typeof listsOf>, path: string): StatusCause[] {
  const [min, max, dflt, request, ratio] = [lists.min.get(name), lists.max.get(name), lists.default.get(name), lists.defaultRequest.get(name),
    lists.maxLimitRequestRatio.get(name)];
  const causes: StatusCause[] = [];
  const s = (q: Quantity) => formatQuantity(q);
  const at = (list: string) => `${path}.${list}[${name}]`;
  if (min && max && compareQuantities(min, max) > 0) causes.push(invalid(at('min'), shown(min), `min value ${s(min)} is greater than max value ${s(max)}`));
  if (request && min && compareQuantities(min, request) > 0) causes.push(invalid(at('defaultRequest'), shown(request), `min value ${s(min)} is greater than default request value ${s(request)}`));
  if (request && max && compareQuantities(request, max) > 0) causes.push(invalid(at('defaultRequest'), shown(request), `default request value ${s(request)} is greater than max value ${s(max)}`));
  if (request && dflt && compareQuantities(request, dflt) > 0) causes.push(invalid(at('defaultRequest'), shown(request), `default request value ${s(request)} is greater than default limit value ${s(dflt)}`));
  if (dflt && min && compareQuantities(min, dflt) > 0) causes.push(invalid(at('default'), shown(min), `min value ${s(min)} is greater than default value ${s(dflt)}`));
  if (dflt && max && compareQuantities(dflt, max) > 0) causes.push(invalid(at('default'), shown(max), `default value ${s(dflt)} is greater than max value ${s(max)}`));
  if (ratio && ratio.nanos < 1_000_000_000n) causes.push(invalid(at('maxLimitRequestRatio'), shown(ratio), `ratio ${s(ratio)} is less than 1`));
  if (ratio && min && max) {
    const milli = unitValue(ratio) < MAX_MILLI_VALUE && unitValue(min) < MAX_MILLI_VALUE && unitValue(max) < MAX_MILLI_VALUE;
    const ratioValue = milli ? Number(milliValue(ratio)) / 1000 : Number(unitValue(ratio));
    const limit = milli ? Number(milliValue(max)) / Number(milliValue(min)) : Number(unitValue(max)) / Number(unitValue(min));
    if (ratioValue > limit) causes.push(invalid(at('maxLimitRequestRatio'), shown(ratio), `ratio ${s(ratio)} is greater than max/min = ${limit.toFixed(6)}`));
  }
  if (!isOvercommitAllowed(name) && dflt && request && compareQuantities(dflt, request) !== 0)
    causes.push(invalid(at('defaultRequest'), shown(request), `default value ${s(dflt)} must equal to defaultRequest value ${s(request)} in ${name}`));
  return causes;
}

/** `repeated`: an earlier item has this type. */
function validateItem(item: Spec, path: string, repeated: boolean): StatusCause[] {
  const type = typeof item.type === 'string' ? item.type : '';
  const causes = validateQualifiedKey(type, `${path}.type`);
  if (!causes.length && !type.includes('/') && !LIMIT_TYPES.includes(type))
    causes.push(invalid(`${path}.type`, JSON.stringify(type), 'must be a standard limit type or fully qualified'));
  if (repeated) causes.push(duplicate(`${path}.type`, JSON.stringify(type)));
  const nameRule = type === 'Pod' || type === 'Container' ? validateContainerResourceName : validateResourceName;
  const lists = listsOf(item);
  for (const l of LISTS) {
    if (type === 'Pod' && (l === 'default' || l === 'defaultRequest')) {
      if (lists[l].size) causes.push(forbidden(`${path}.${l}`, "may not be specified when `type` is 'Pod'"));
      continue;
    }
    for (const name of lists[l].keys()) causes.push(...nameRule(name, `${path}.${l}[${name}]`));
  }
  if (type === 'PersistentVolumeClaim' && !lists.min.has('storage') && !lists.max.has('storage'))
    causes.push(required(`${path}.limits`, 'either minimum or maximum storage value is required, but neither was provided'));
  const names = new Set(LISTS.filter((l) => !(type === 'Pod' && (l === 'default' || l === 'defaultRequest'))).flatMap((l) => [...lists[l].keys()]));
  for (const name of [...names].sort()) causes.push(...validateBounds(name, lists, path));
  return causes;
}

function validate(lr: KObject): StatusCause[] {
  const seen = new Set<unknown>();
  return list(fields(lr.spec).limits).flatMap((item, i) => {
    const spec = fields(item);
    const repeated = seen.has(spec.type);
    seen.add(spec.type);
    return validateItem(spec, `spec.limits[${i}]`, repeated);
  });
}

export const limitRange = defineKind({ nameRule: 'subdomain', hasStatus: false, hasGeneration: false, defaults, validate });
