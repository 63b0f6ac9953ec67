// core/v1 kinds served as Protobuf (k8s.io/api core/v1 generated.proto): Namespace, ConfigMap,
// Secret, ServiceAccount, Pod (with its status), PodTemplate and Node. PodSpec lives in
// protobuf-messages-pod.ts; Service and Endpoints in protobuf-messages-service.ts.
import { LocalObjectReference } from './protobuf-messages-container.ts';
import { ObjectMeta } from './protobuf-messages-meta.ts';
import { PodSpec, PodTemplateSpec } from './protobuf-messages-pod.ts';
import { message } from './protobuf-schema.ts';

/** The type/status/reason/message rows every condition shares, plus its own time fields. */
export function condition(name: string, times: readonly [number, string][], reasonNo: number) {
  return message(name, [
    [1, 'type', 'string', 'keep'],
    [2, 'status', 'string', 'keep'],
    ...times.map(([no, json]) => [no, json, 'time'] as const),
    [reasonNo, 'reason', 'string'],
    [reasonNo + 1, 'message', 'string'],
  ]);
}

export const Namespace = message('Namespace', [
  [1, 'metadata', ObjectMeta, 'keep'],
  [2, 'spec', message('NamespaceSpec', [[1, 'finalizers', 'string', 'list']])],
  [3, 'status', message('NamespaceStatus', [
    [1, 'phase', 'string'],
    [2, 'conditions', condition('NamespaceCondition', [[4, 'lastTransitionTime']], 5), 'list'],
  ])],
]);

export const ConfigMap = message('ConfigMap', [
  [1, 'metadata', ObjectMeta, 'keep'],
  [2, 'data', 'string', 'map'],
  [3, 'binaryData', 'bytes', 'map'],
  [4, 'immutable', 'bool', 'keep'],
]);

export const Secret = message('Secret', [
  [1, 'metadata', ObjectMeta, 'keep'],
  [2, 'data', 'bytes', 'map'],
  [3, 'type', 'string'],
  [4, 'stringData', 'string', 'map'],
  [5, 'immutable', 'bool', 'keep'],
]);

export const ObjectReference = message('ObjectReference', [
  [1, 'kind', 'string'],
  [2, 'namespace', 'string'],
  [3, 'name', 'string'],
  [4, 'uid', 'string'],
  [5, 'apiVersion', 'string'],
  [6, 'resourceVersion', 'string'],
  [7, 'fieldPath', 'string'],
]);

export const ServiceAccount = message('ServiceAccount', [
  [1, 'metadata', ObjectMeta, 'keep'],
  [2, 'secrets', ObjectReference, 'list'],
  [3, 'imagePullSecrets', LocalObjectReference, 'list'],
  // A pointer: false is a choice, unset defers to the pod.
  [4, 'automountServiceAccountToken', 'bool', 'keep'],
]);

export const PodTemplate = message('PodTemplate', [
  [1, 'metadata', ObjectMeta, 'keep'],
  [2, 'template', PodTemplateSpec],
]);

const ContainerState = message('ContainerState', [
  [1, 'waiting', message('ContainerStateWaiting', [[1, 'reason', 'string'], [2, 'message', 'string']])],
  [2, 'running', message('ContainerStateRunning', [[1, 'startedAt', 'time']])],
  [3, 'terminated', message('ContainerStateTerminated', [
    [1, 'exitCode', 'int32', 'keep'],
    [2, 'signal', 'int32'],
    [3, 'reason', 'string'],
    [4, 'message', 'string'],
    [5, 'startedAt', 'time'],
    [6, 'finishedAt', 'time'],
    [7, 'containerID', 'string'],
  ])],
]);

const ContainerStatus = message('ContainerStatus', [
  [1, 'name', 'string', 'keep'],
  [2, 'state', ContainerState],
  [3, 'lastState', ContainerState],
  [4, 'ready', 'bool', 'keep'],
  [5, 'restartCount', 'int32', 'keep'],
  [6, 'image', 'string', 'keep'],
  [7, 'imageID', 'string', 'keep'],
  [8, 'containerID', 'string'],
  [9, 'started', 'bool', 'keep'],
]);

const PodStatus = message('PodStatus', [
  [1, 'phase', 'string'],
  [2, 'conditions', condition('PodCondition', [[3, 'lastProbeTime'], [4, 'lastTransitionTime']], 5), 'list'],
  [3, 'message', 'string'],
  [4, 'reason', 'string'],
  [5, 'hostIP', 'string'],
  [6, 'podIP', 'string'],
  [7, 'startTime', 'time'],
  [8, 'containerStatuses', ContainerStatus, 'list'],
  [9, 'qosClass', 'string'],
  [10, 'initContainerStatuses', ContainerStatus, 'list'],
  [11, 'nominatedNodeName', 'string'],
  [12, 'podIPs', message('PodIP', [[1, 'ip', 'string', 'keep']]), 'list'],
  [13, 'ephemeralContainerStatuses', ContainerStatus, 'list'],
]);

export const Pod = message('Pod', [
  [1, 'metadata', ObjectMeta, 'keep'],
  [2, 'spec', PodSpec],
  [3, 'status', PodStatus],
]);

const NodeSpec = message('NodeSpec', [
  [1, 'podCIDR', 'string'],
  [2, 'externalID', 'string'],
  [3, 'providerID', 'string'],
  [4, 'unschedulable', 'bool'],
  [5, 'taints', message('Taint', [
    [1, 'key', 'string', 'keep'],
    [2, 'value', 'string'],
    [3, 'effect', 'string', 'keep'],
    [4, 'timeAdded', 'time'],
  ]), 'list'],
  [7, 'podCIDRs', 'string', 'list'],
]);

const NodeSystemInfo = message('NodeSystemInfo', [
  [1, 'machineID', 'string', 'keep'],
  [2, 'systemUUID', 'string', 'keep'],
  [3, 'bootID', 'string', 'keep'],
  [4, 'kernelVersion', 'string', 'keep'],
  [5, 'osImage', 'string', 'keep'],
  [6, 'containerRuntimeVersion', 'string', 'keep'],
  [7, 'kubeletVersion', 'string', 'keep'],
  [8, 'kubeProxyVersion', 'string', 'keep'],
  [9, 'operatingSystem', 'string', 'keep'],
  [10, 'architecture', 'string', 'keep'],
]);

const NodeStatus = message('NodeStatus', [
  [1, 'capacity', 'quantity', 'map'],
  [2, 'allocatable', 'quantity', 'map'],
  [3, 'phase', 'string'],
  [4, 'conditions', condition('NodeCondition', [[3, 'lastHeartbeatTime'], [4, 'lastTransitionTime']], 5), 'list'],
  [5, 'addresses', message('NodeAddress', [[1, 'type', 'string', 'keep'], [2, 'address', 'string', 'keep']]), 'list'],
  // Go names this JSON field "Port", capitalised.
  [6, 'daemonEndpoints', message('NodeDaemonEndpoints', [
    [1, 'kubeletEndpoint', message('DaemonEndpoint', [[1, 'Port', 'int32', 'keep']])],
  ])],
  [7, 'nodeInfo', NodeSystemInfo],
  [8, 'images', message('ContainerImage', [[1, 'names', 'string', 'list'], [2, 'sizeBytes', 'int64']]), 'list'],
  [9, 'volumesInUse', 'string', 'list'],
  [10, 'volumesAttached', message('AttachedVolume', [[1, 'name', 'string', 'keep'], [2, 'devicePath', 'string', 'keep']]), 'list'],
]);

export const Node = message('Node', [
  [1, 'metadata', ObjectMeta, 'keep'],
  [2, 'spec', NodeSpec],
  [3, 'status', NodeStatus],
]);
