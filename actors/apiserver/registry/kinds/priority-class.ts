// PriorityClasses (scheduling.k8s.io/v1; pkg/apis/scheduling validation, v1 defaults and helpers,
// pkg/registry/scheduling/priorityclass): a name-to-priority mapping. Values above one billion are
// the system's; the `system-` prefix is reserved for the two classes the server makes at start,
// which may not be deleted; value and preemptionPolicy never change. printPriorityClass shows NAME
// VALUE GLOBAL-DEFAULT AGE PREEMPTIONPOLICY.
import type { StatusCause } from '../../../api/status.ts';
import type { KObject } from '../../../api/types.ts';
import { fill, nil } from '../defaults-fields.ts';
import { defineKind } from '../kind.ts';
import { age, ageColumn, column, int, integer, nameColumn, nameOf, text } from '../tables-format.ts';
import { forbidden, immutable, notSupported, required } from './rules.ts';

export const HIGHEST_USER_DEFINABLE_PRIORITY = 1_000_000_000;
const SYSTEM_PREFIX = 'system-';
const PREEMPTION_POLICIES = ['PreemptLowerPriority', 'Never'];

/** The classes every cluster has (pkg/apis/scheduling/v1 helpers.go), made at start like the system namespaces. */
export const SYSTEM_PRIORITY_CLASSES: readonly KObject[] = [
  { apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name: 'system-node-critical' }, value: 2_000_001_000,
    description: 'Used for system critical pods that must not be moved from their current node.' },
  { apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name: 'system-cluster-critical' }, value: 2_000_000_000,
    description: 'Used for system critical pods that must run in the cluster, but can be moved to another node if necessary.' },
];

export interface PriorityClassFields {
  value?: number;
  globalDefault?: boolean;
  description?: string;
  preemptionPolicy?: string;
}

export const classFields = (pc: KObject) => pc as KObject & PriorityClassFields;

/** Why a `system-` name is not one of the system classes as they are (IsKnownSystemPriorityClass), or undefined. */
function unknownSystemClass(pc: KObject & PriorityClassFields): string | undefined {
  const known = SYSTEM_PRIORITY_CLASSES.find((c) => c.metadata.name === pc.metadata.name);
  if (!known) return `${pc.metadata.name} is not a known system priority class`;
  if (classFields(known).value !== (pc.value ?? 0)) return `value of ${pc.metadata.name} PriorityClass must be ${classFields(known).value}`;
  if (pc.globalDefault === true) return `globalDefault of ${pc.metadata.name} PriorityClass must be false`;
  return undefined;
}

function validate(obj: KObject): StatusCause[] {
  const pc = classFields(obj);
  const causes: StatusCause[] = [];
  if (pc.metadata.name?.startsWith(SYSTEM_PREFIX)) {
    const why = unknownSystemClass(pc);
    if (why) causes.push(forbidden('metadata.name', `priority class names with '${SYSTEM_PREFIX}' prefix are reserved for system use only. error: ${why}`));
  } else if ((pc.value ?? 0) > HIGHEST_USER_DEFINABLE_PRIORITY) {
    causes.push(forbidden('value', `maximum allowed value of a user defined priority is ${HIGHEST_USER_DEFINABLE_PRIORITY}`));
  }
  if (pc.preemptionPolicy === '') causes.push(required('preemptionPolicy'));
  else if (pc.preemptionPolicy !== undefined && !PREEMPTION_POLICIES.includes(pc.preemptionPolicy))
    causes.push(notSupported('preemptionPolicy', JSON.stringify(pc.preemptionPolicy), PREEMPTION_POLICIES));
  return causes;
}

function validateUpdate(obj: KObject, old: KObject): StatusCause[] {
  const [pc, was] = [classFields(obj), classFields(old)];
  const causes: StatusCause[] = [];
  if ((pc.value ?? 0) !== (was.value ?? 0)) causes.push(forbidden('value', 'may not be changed in an update.'));
  if (pc.preemptionPolicy !== was.preemptionPolicy) causes.push(immutable('preemptionPolicy', pc.preemptionPolicy ?? null));
  return causes;
}

export const priorityClass = defineKind({
  nameRule: 'subdomain',
  hasStatus: false,
  hasGeneration: false,
  defaults: (pc) => fill(pc, [nil('value', 0), nil('preemptionPolicy', 'PreemptLowerPriority')]),
  validate,
  validateUpdate,
  deleteForbidden: (name) => (SYSTEM_PRIORITY_CLASSES.some((c) => c.metadata.name === name) ? 'this is a system priority class and cannot be deleted' : undefined),
  printer: {
    columns: [
      nameColumn,
      column('Value', 'value represents the integer value of this priority class. This is the actual priority that pods receive when they have the name of this class in their pod spec.', integer),
      column('Global-Default', 'globalDefault specifies whether this PriorityClass should be considered as the default priority for pods that do not have any priority class. Only one PriorityClass can be marked as `globalDefault`. However, if more than one PriorityClasses exists with their `globalDefault` field set to true, the smallest value of such global default PriorityClasses will be used as the default priority.', { type: 'boolean' }),
      ageColumn,
      column('PreemptionPolicy', 'preemptionPolicy is the Policy for preempting pods with lower priority. One of Never, PreemptLowerPriority. Defaults to PreemptLowerPriority if unset.'),
    ],
    cells: (o, nowMs) => [nameOf(o), int(classFields(o).value), classFields(o).globalDefault === true, age(o, nowMs), text(classFields(o).preemptionPolicy)],
  },
});
