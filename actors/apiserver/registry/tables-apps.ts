// Printers for the apps group: deployments, replica sets, daemon sets, stateful sets and
// controller revisions (printers.go printDeployment, printReplicaSet, ..., printControllerRevision).
import type { KObject, OwnerReference } from '../../api/types.ts';
import { translateTimestampSince } from './human-duration.ts';
import {
  ageColumn, column, containerCells, containersColumn, fields, formatLabels, formatLabelSelector, imagesColumn, int, integer,
  labelSelectorString, nameColumn, type Printer, wide,
} from './tables-format.ts';

const age = (o: KObject, nowMs: number) => translateTimestampSince(o.metadata.creationTimestamp, nowMs);
const name = (o: KObject) => o.metadata.name ?? '';
/** spec.replicas; a stored object always has it, as decoding defaults it to 1. */
const desired = (o: KObject) => int(fields(o.spec).replicas, 1);
const templateContainers = (o: KObject) => containerCells(fields(o.spec, 'template', 'spec').containers);

const selectorColumn = column('Selector', 'A label query over pods that should match the replica count.', wide);

const deployment: Printer = {
  columns: [
    nameColumn,
    column('Ready', 'Number of the pod with ready state'),
    column('Up-to-date', 'Total number of non-terminated pods targeted by this deployment that have the desired template spec.'),
    column('Available', 'Total number of available pods (ready for at least minReadySeconds) targeted by this deployment.'),
    ageColumn, containersColumn, imagesColumn, selectorColumn,
  ],
  cells(o, nowMs) {
    const status = fields(o.status);
    // Unlike the other workloads, an empty selector prints as "" and a broken one as "<invalid>".
    const selector = labelSelectorString(fields(o.spec).selector) ?? '<invalid>';
    return [name(o), `${int(status.readyReplicas)}/${desired(o)}`, int(status.updatedReplicas), int(status.availableReplicas), age(o, nowMs),
      ...templateContainers(o), selector];
  },
};

const replicaSet: Printer = {
  columns: [
    nameColumn,
    column('Desired', 'Replicas is the number of desired replicas.', integer),
    column('Current', 'Replicas is the most recently observed number of replicas.', integer),
    column('Ready', 'The number of ready replicas for this replica set.', integer),
    ageColumn, containersColumn, imagesColumn, selectorColumn,
  ],
  cells(o, nowMs) {
    const status = fields(o.status);
    return [name(o), desired(o), int(status.replicas), int(status.readyReplicas), age(o, nowMs),
      ...templateContainers(o), formatLabelSelector(fields(o.spec).selector)];
  },
};

const daemonSet: Printer = {
  columns: [
    nameColumn,
    column('Desired', 'The total number of nodes that should be running the daemon pod (including nodes correctly running the daemon pod).', integer),
    column('Current', 'The number of nodes that are running at least 1 daemon pod and are supposed to run the daemon pod.', integer),
    column('Ready', 'The number of nodes that should be running the daemon pod and have one or more of the daemon pod running and ready.', integer),
    column('Up-to-date', 'The total number of nodes that are running updated daemon pod', integer),
    column('Available', 'The number of nodes that should be running the daemon pod and have one or more of the daemon pod running and available.', integer),
    column('Node Selector', 'NodeSelector is a selector which must be true for the pod to fit on a node.'),
    ageColumn, containersColumn, imagesColumn, selectorColumn,
  ],
  cells(o, nowMs) {
    const status = fields(o.status);
    return [name(o), int(status.desiredNumberScheduled), int(status.currentNumberScheduled), int(status.numberReady),
      int(status.updatedNumberScheduled), int(status.numberAvailable), formatLabels(fields(o.spec, 'template', 'spec').nodeSelector),
      age(o, nowMs), ...templateContainers(o), formatLabelSelector(fields(o.spec).selector)];
  },
};

const statefulSet: Printer = {
  columns: [nameColumn, column('Ready', 'Number of the pod with ready state'), ageColumn, containersColumn, imagesColumn],
  cells: (o, nowMs) => [name(o), `${int(fields(o.status).readyReplicas)}/${desired(o)}`, age(o, nowMs), ...templateContainers(o)],
};

const controllerRevision: Printer = {
  columns: [
    nameColumn,
    column('Controller', 'Controller of the object'),
    // The real column says string although the cell is the revision number.
    column('Revision', 'Revision indicates the revision of the state represented by Data.'),
    ageColumn,
  ],
  cells: (o, nowMs) => [name(o), controllerName(o), int(o.revision), age(o, nowMs)],
};

/** `daemonset.apps/ds-1` from the controlling owner reference, or "<none>" (formatResourceName). */
function controllerName(o: KObject): string {
  const ref: OwnerReference | undefined = (o.metadata.ownerReferences ?? []).find((r) => r.controller === true);
  if (!ref) return '<none>';
  const apiVersion = ref.apiVersion ?? '';
  const group = apiVersion.includes('/') ? apiVersion.slice(0, apiVersion.indexOf('/')) : '';
  const kind = ref.kind ?? '';
  if (!group && !kind) return ref.name;
  return `${(group ? `${kind}.${group}` : kind).toLowerCase()}/${ref.name}`;
}

/** Printers of apps resources by plural. */
export const APPS_PRINTERS: Readonly<Record<string, Printer>> = {
  deployments: deployment,
  replicasets: replicaSet,
  daemonsets: daemonSet,
  statefulsets: statefulSet,
  controllerrevisions: controllerRevision,
};
