// core/v1 PodSpec, PodStatus and PodTemplateSpec (k8s.io/api core/v1 generated.proto):
// volumes, scheduling (affinity, tolerations, spread), DNS and pod security, container statuses.
import { Container, LocalObjectReference, ObjectFieldSelector, ResourceFieldSelector, SELinuxOptions, SeccompProfile, WindowsSecurityContextOptions } from './protobuf-messages-container.ts';
import { LabelSelector, ObjectMeta } from './protobuf-messages-meta.ts';
import { message, type FieldRow } from './protobuf-schema.ts';

const KeyToPath = message('KeyToPath', [
  [1, 'key', 'string', 'keep'],
  [2, 'path', 'string', 'keep'],
  [3, 'mode', 'int32', 'keep'],
]);

const DownwardAPIVolumeFile = message('DownwardAPIVolumeFile', [
  [1, 'path', 'string', 'keep'],
  [2, 'fieldRef', ObjectFieldSelector],
  [3, 'resourceFieldRef', ResourceFieldSelector],
  [4, 'mode', 'int32', 'keep'],
]);

/** SecretProjection and ConfigMapProjection have the same shape. */
const projection: readonly FieldRow[] = [
  [1, 'localObjectReference', LocalObjectReference, 'inline'],
  [2, 'items', KeyToPath, 'list'],
  [4, 'optional', 'bool', 'keep'],
];

const VolumeProjection = message('VolumeProjection', [
  [1, 'secret', message('SecretProjection', projection)],
  [2, 'downwardAPI', message('DownwardAPIProjection', [[1, 'items', DownwardAPIVolumeFile, 'list']])],
  [3, 'configMap', message('ConfigMapProjection', projection)],
  [4, 'serviceAccountToken', message('ServiceAccountTokenProjection', [
    [1, 'audience', 'string'],
    [2, 'expirationSeconds', 'int64', 'keep'],
    [3, 'path', 'string', 'keep'],
  ])],
]);

/** Only the sources a simulated node can pretend to mount; other numbers are skipped on decode. */
const VolumeSource = message('VolumeSource', [
  [1, 'hostPath', message('HostPathVolumeSource', [[1, 'path', 'string', 'keep'], [2, 'type', 'string', 'keep']])],
  [2, 'emptyDir', message('EmptyDirVolumeSource', [[1, 'medium', 'string'], [2, 'sizeLimit', 'quantity']])],
  [6, 'secret', message('SecretVolumeSource', [
    [1, 'secretName', 'string'],
    [2, 'items', KeyToPath, 'list'],
    [3, 'defaultMode', 'int32', 'keep'],
    [4, 'optional', 'bool', 'keep'],
  ])],
  [7, 'nfs', message('NFSVolumeSource', [[1, 'server', 'string', 'keep'], [2, 'path', 'string', 'keep'], [3, 'readOnly', 'bool']])],
  [10, 'persistentVolumeClaim', message('PersistentVolumeClaimVolumeSource', [[1, 'claimName', 'string', 'keep'], [2, 'readOnly', 'bool']])],
  [16, 'downwardAPI', message('DownwardAPIVolumeSource', [[1, 'items', DownwardAPIVolumeFile, 'list'], [2, 'defaultMode', 'int32', 'keep']])],
  [19, 'configMap', message('ConfigMapVolumeSource', [
    [1, 'localObjectReference', LocalObjectReference, 'inline'],
    [2, 'items', KeyToPath, 'list'],
    [3, 'defaultMode', 'int32', 'keep'],
    [4, 'optional', 'bool', 'keep'],
  ])],
  [26, 'projected', message('ProjectedVolumeSource', [[1, 'sources', VolumeProjection, 'list'], [2, 'defaultMode', 'int32', 'keep']])],
]);

const Volume = message('Volume', [
  [1, 'name', 'string', 'keep'],
  [2, 'volumeSource', VolumeSource, 'inline'],
]);

const NodeSelectorRequirement = message('NodeSelectorRequirement', [
  [1, 'key', 'string', 'keep'],
  [2, 'operator', 'string', 'keep'],
  [3, 'values', 'string', 'list'],
]);

const NodeSelectorTerm = message('NodeSelectorTerm', [
  [1, 'matchExpressions', NodeSelectorRequirement, 'list'],
  [2, 'matchFields', NodeSelectorRequirement, 'list'],
]);

const NodeAffinity = message('NodeAffinity', [
  [1, 'requiredDuringSchedulingIgnoredDuringExecution', message('NodeSelector', [[1, 'nodeSelectorTerms', NodeSelectorTerm, 'list']])],
  [2, 'preferredDuringSchedulingIgnoredDuringExecution', message('PreferredSchedulingTerm', [
    [1, 'weight', 'int32', 'keep'],
    [2, 'preference', NodeSelectorTerm],
  ]), 'list'],
]);

const PodAffinityTerm = message('PodAffinityTerm', [
  [1, 'labelSelector', LabelSelector],
  [2, 'namespaces', 'string', 'list'],
  [3, 'topologyKey', 'string', 'keep'],
  [4, 'namespaceSelector', LabelSelector],
]);

const WeightedPodAffinityTerm = message('WeightedPodAffinityTerm', [
  [1, 'weight', 'int32', 'keep'],
  [2, 'podAffinityTerm', PodAffinityTerm],
]);

/** PodAffinity and PodAntiAffinity have the same shape. */
const podAffinity = (name: string) =>
  message(name, [
    [1, 'requiredDuringSchedulingIgnoredDuringExecution', PodAffinityTerm, 'list'],
    [2, 'preferredDuringSchedulingIgnoredDuringExecution', WeightedPodAffinityTerm, 'list'],
  ]);

const Affinity = message('Affinity', [
  [1, 'nodeAffinity', NodeAffinity],
  [2, 'podAffinity', podAffinity('PodAffinity')],
  [3, 'podAntiAffinity', podAffinity('PodAntiAffinity')],
]);

const Toleration = message('Toleration', [
  [1, 'key', 'string'],
  [2, 'operator', 'string'],
  [3, 'value', 'string'],
  [4, 'effect', 'string'],
  [5, 'tolerationSeconds', 'int64', 'keep'],
]);

const TopologySpreadConstraint = message('TopologySpreadConstraint', [
  [1, 'maxSkew', 'int32', 'keep'],
  [2, 'topologyKey', 'string', 'keep'],
  [3, 'whenUnsatisfiable', 'string', 'keep'],
  [4, 'labelSelector', LabelSelector],
  [5, 'minDomains', 'int32', 'keep'],
  [6, 'nodeAffinityPolicy', 'string', 'keep'],
  [7, 'nodeTaintsPolicy', 'string', 'keep'],
  [8, 'matchLabelKeys', 'string', 'list'],
]);

const PodDNSConfig = message('PodDNSConfig', [
  [1, 'nameservers', 'string', 'list'],
  [2, 'searches', 'string', 'list'],
  [3, 'options', message('PodDNSConfigOption', [[1, 'name', 'string'], [2, 'value', 'string', 'keep']]), 'list'],
]);

const PodSecurityContext = message('PodSecurityContext', [
  [1, 'seLinuxOptions', SELinuxOptions],
  [2, 'runAsUser', 'int64', 'keep'],
  [3, 'runAsNonRoot', 'bool', 'keep'],
  [4, 'supplementalGroups', 'int64', 'list'],
  [5, 'fsGroup', 'int64', 'keep'],
  [6, 'runAsGroup', 'int64', 'keep'],
  [7, 'sysctls', message('Sysctl', [[1, 'name', 'string', 'keep'], [2, 'value', 'string', 'keep']]), 'list'],
  [8, 'windowsOptions', WindowsSecurityContextOptions],
  [9, 'fsGroupChangePolicy', 'string', 'keep'],
  [10, 'seccompProfile', SeccompProfile],
]);

const EphemeralContainer = message('EphemeralContainer', [
  [1, 'ephemeralContainerCommon', Container, 'inline'],
  [2, 'targetContainerName', 'string'],
]);

export const PodSpec = message('PodSpec', [
  [1, 'volumes', Volume, 'list'],
  [2, 'containers', Container, 'list'],
  [3, 'restartPolicy', 'string'],
  [4, 'terminationGracePeriodSeconds', 'int64', 'keep'],
  [5, 'activeDeadlineSeconds', 'int64', 'keep'],
  [6, 'dnsPolicy', 'string'],
  [7, 'nodeSelector', 'string', 'map'],
  [8, 'serviceAccountName', 'string'],
  [9, 'serviceAccount', 'string'],
  [10, 'nodeName', 'string'],
  [11, 'hostNetwork', 'bool'],
  [12, 'hostPID', 'bool'],
  [13, 'hostIPC', 'bool'],
  [14, 'securityContext', PodSecurityContext],
  [15, 'imagePullSecrets', LocalObjectReference, 'list'],
  [16, 'hostname', 'string'],
  [17, 'subdomain', 'string'],
  [18, 'affinity', Affinity],
  [19, 'schedulerName', 'string'],
  [20, 'initContainers', Container, 'list'],
  [21, 'automountServiceAccountToken', 'bool', 'keep'],
  [22, 'tolerations', Toleration, 'list'],
  [23, 'hostAliases', message('HostAlias', [[1, 'ip', 'string', 'keep'], [2, 'hostnames', 'string', 'list']]), 'list'],
  [24, 'priorityClassName', 'string'],
  [25, 'priority', 'int32', 'keep'],
  [26, 'dnsConfig', PodDNSConfig],
  [27, 'shareProcessNamespace', 'bool', 'keep'],
  [28, 'readinessGates', message('PodReadinessGate', [[1, 'conditionType', 'string', 'keep']]), 'list'],
  [29, 'runtimeClassName', 'string', 'keep'],
  [30, 'enableServiceLinks', 'bool', 'keep'],
  [31, 'preemptionPolicy', 'string', 'keep'],
  [32, 'overhead', 'quantity', 'map'],
  [33, 'topologySpreadConstraints', TopologySpreadConstraint, 'list'],
  [34, 'ephemeralContainers', EphemeralContainer, 'list'],
  [35, 'setHostnameAsFQDN', 'bool', 'keep'],
]);

export const PodTemplateSpec = message('PodTemplateSpec', [
  [1, 'metadata', ObjectMeta],
  [2, 'spec', PodSpec],
]);
