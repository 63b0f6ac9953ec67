// The apps/v1 workloads product code reads and writes, with their resources.
import type * as apps from 'kubernetes-types/apps/v1.js';
import { typedResource, type Stored } from './stored.ts';

export type {
  DaemonSetSpec, DaemonSetStatus, DeploymentCondition, DeploymentSpec, DeploymentStatus, ReplicaSetSpec, ReplicaSetStatus,
  StatefulSetSpec, StatefulSetStatus,
} from 'kubernetes-types/apps/v1.js';

export type Deployment = Stored<apps.Deployment>;
export type ReplicaSet = Stored<apps.ReplicaSet>;
export type StatefulSet = Stored<apps.StatefulSet>;
export type DaemonSet = Stored<apps.DaemonSet>;
export type ControllerRevision = Stored<apps.ControllerRevision>;

export const DEPLOYMENTS = typedResource<Deployment>('apps', 'v1', 'deployments');
export const REPLICASETS = typedResource<ReplicaSet>('apps', 'v1', 'replicasets');
export const STATEFULSETS = typedResource<StatefulSet>('apps', 'v1', 'statefulsets');
export const DAEMONSETS = typedResource<DaemonSet>('apps', 'v1', 'daemonsets');
export const CONTROLLER_REVISIONS = typedResource<ControllerRevision>('apps', 'v1', 'controllerrevisions');
