// The Priority admission plugin (plugin/pkg/admission/priority): a new pod's priority and
// preemption policy come from its PriorityClass, or from the global default class (whose name it
// then takes), or are 0 and PreemptLowerPriority; a pod naming no existing class, or stating a
// priority or policy other than its class's, is refused. An update keeps what the create set.
// PriorityClasses themselves: only one may be the global default.
import { forbidden } from '../../api/status.ts';
import type { KObject } from '../../api/types.ts';
import { classFields } from '../registry/kinds/priority-class.ts';
import { targetOf, type AdmissionAttributes, type AdmissionPlugin } from './chain.ts';
import type { PolicyObjects } from './policy-objects.ts';

interface PodPriority {
  priorityClassName?: string;
  priority?: number | null;
  preemptionPolicy?: string | null;
}

const specOf = (pod: KObject) => (pod.spec ??= {}) as PodPriority;

function admitPodCreate(a: AdmissionAttributes, classes: PolicyObjects): void {
  const spec = specOf(a.object!);
  let value = 0;
  let policy: string | undefined = 'PreemptLowerPriority';
  if (!spec.priorityClassName) {
    const dflt = classes.globalDefault();
    if (dflt) {
      spec.priorityClassName = dflt.metadata.name;
      ({ value = 0, preemptionPolicy: policy } = classFields(dflt));
    }
  } else {
    const pc = classes.priorityClass(spec.priorityClassName);
    if (!pc) throw forbidden(targetOf(a), `no PriorityClass with name ${spec.priorityClassName} was found`);
    ({ value = 0, preemptionPolicy: policy } = classFields(pc));
  }
  if (spec.priority !== undefined && spec.priority !== null && spec.priority !== value)
    throw forbidden(targetOf(a), `the integer value of priority (${spec.priority}) must not be provided in pod spec; priority admission controller computed ${value} from the given PriorityClass name`);
  spec.priority = value;
  if (policy === undefined) return;
  if (spec.preemptionPolicy !== undefined && spec.preemptionPolicy !== null && spec.preemptionPolicy !== policy)
    throw forbidden(targetOf(a), `the string value of PreemptionPolicy (${spec.preemptionPolicy}) must not be provided in pod spec; priority admission controller computed ${policy} from the given PriorityClass name`);
  spec.preemptionPolicy = policy;
}

/** Validation forbids changing them; an update that leaves them out keeps them. */
function admitPodUpdate(a: AdmissionAttributes): void {
  const [spec, old] = [specOf(a.object!), (a.old?.spec ?? {}) as PodPriority];
  if ((spec.priority === undefined || spec.priority === null) && typeof old.priority === 'number') spec.priority = old.priority;
  if (!spec.preemptionPolicy && old.preemptionPolicy) spec.preemptionPolicy = old.preemptionPolicy;
}

export function priorityPlugin(classes: PolicyObjects): AdmissionPlugin {
  return {
    name: 'Priority',
    mutate(a) {
      if (a.subresource || !a.object || a.type.group !== '' || a.type.resource !== 'pods') return;
      if (a.operation === 'CREATE') admitPodCreate(a, classes);
      else if (a.operation === 'UPDATE') admitPodUpdate(a);
    },
    validate(a) {
      if (a.subresource || !a.object || a.type.group !== 'scheduling.k8s.io' || a.type.resource !== 'priorityclasses') return;
      if (classFields(a.object).globalDefault !== true) return;
      const dflt = classes.globalDefault();
      if (dflt && (a.operation === 'CREATE' || dflt.metadata.name !== a.name))
        throw forbidden(targetOf(a), `PriorityClass ${dflt.metadata.name} is already marked as default. Only one default can exist`);
    },
  };
}
