// The stable ids of the actors a process hosts, one function each, so every host names an actor
// the same way (an inspector, a log filter or another host finds it by that name).
import type { ResourceType } from '../api/resources.ts';

export const actorIds = {
  apiserver: () => 'apiserver',
  node: (name: string) => `node/${name}`,
  nodeHealth: (name: string) => `node-health/${name}`,
  pod: (namespace: string, name: string) => `pod/${namespace}/${name}`,
  /** A zone by its key (`region:zone`); nodes with neither label share `zone/none`. */
  zone: (key: string) => `zone/${key || 'none'}`,
  leader: (namespace: string, lock: string, identity: string) => `leader/${namespace}/${lock}/${identity}`,
  controller: (name: string) => `controller/${name}`,
  controllerManager: (identity: string) => `controller-manager/${identity}`,
  scheduler: (name: string) => `scheduler/${name}`,
  /** A CustomResourceDefinition as the API server serves it: `crd/widgets.example.com`. */
  crd: (name: string) => `crd/${name}`,
  /** A Job the Job controller drives, until it finishes. */
  job: (namespace: string, name: string) => `job/${namespace}/${name}`,
  /** A stored object while it terminates: `object/pods/default/web-1`, `object/deployments.apps/default/web`, `object/namespaces/team-a`. */
  object: (type: Pick<ResourceType, 'group' | 'resource'>, namespace: string | undefined, name: string) =>
    `object/${type.group ? `${type.resource}.${type.group}` : type.resource}/${namespace ? `${namespace}/` : ''}${name}`,
};
