// Objects of every kind the Protobuf codec serves, in their JSON shape, with every field the
// codec knows set at least once. They hold no zero value of an omitempty field and no empty
// list or map, since those do not survive a round trip (Go's encoding leaves them out too).
import type { KObject, ObjectMeta } from '../../../../actors/api/types.ts';
import { accessObjects } from './protobuf-fixtures-access.ts';
import { kindObjects } from './protobuf-fixtures-kinds.ts';
import { batchObjects } from './protobuf-fixtures-batch.ts';
import { admissionObjects } from './protobuf-fixtures-admission.ts';

export const fullMetadata: ObjectMeta & { selfLink: string } = {
  name: 'web',
  generateName: 'web-',
  namespace: 'default',
  selfLink: '/apis/apps/v1/namespaces/default/deployments/web',
  uid: '6f1c5d2e-0000-4000-8000-000000000001',
  resourceVersion: '42',
  generation: 3,
  creationTimestamp: '2024-01-02T03:04:05Z',
  deletionTimestamp: '2030-12-31T23:59:59Z',
  deletionGracePeriodSeconds: 0,
  labels: { app: 'web', 'example.com/tier': 'front' },
  annotations: { 'kubectl.kubernetes.io/last-applied-configuration': '{"a":1}\n', note: 'ünïcødé ✓' },
  ownerReferences: [{ apiVersion: 'v1', kind: 'Namespace', name: 'default', uid: 'u-0', controller: true, blockOwnerDeletion: false }],
  finalizers: ['example.com/keep', 'orphan'],
  managedFields: [
    {
      manager: 'kubectl-create',
      operation: 'Update',
      apiVersion: 'apps/v1',
      time: '2024-01-02T03:04:05Z',
      fieldsType: 'FieldsV1',
      fieldsV1: { 'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } } },
      subresource: 'status',
    },
  ],
};

const selector = {
  matchLabels: { app: 'web' },
  matchExpressions: [
    { key: 'tier', operator: 'In', values: ['front', 'back'] },
    { key: 'legacy', operator: 'DoesNotExist' },
  ],
};

const container = {
  name: 'app',
  image: 'nginx:1.27',
  command: ['/bin/sh', '-c'],
  args: ['exec nginx -g "daemon off;"'],
  workingDir: '/srv',
  ports: [{ name: 'http', containerPort: 80, protocol: 'TCP' }, { hostPort: 8443, containerPort: 443, hostIP: '0.0.0.0' }],
  envFrom: [{ prefix: 'CFG_', configMapRef: { name: 'settings', optional: true } }, { secretRef: { name: 'creds' } }],
  env: [
    { name: 'PLAIN', value: 'v' },
    { name: 'EMPTY' },
    { name: 'POD_NAME', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.name' } } },
    { name: 'MODE', valueFrom: { configMapKeyRef: { name: 'settings', key: 'mode', optional: false } } },
    { name: 'TOKEN', valueFrom: { secretKeyRef: { name: 'creds', key: 'token' } } },
    { name: 'CPU', valueFrom: { resourceFieldRef: { containerName: 'app', resource: 'limits.cpu', divisor: '1m' } } },
  ],
  resources: { limits: { cpu: '500m', memory: '128Mi' }, requests: { cpu: '250m', memory: '64Mi' } },
  volumeMounts: [
    { name: 'data', mountPath: '/data', subPath: 'web' },
    { name: 'cfg', readOnly: true, mountPath: '/etc/cfg', mountPropagation: 'None' },
  ],
  livenessProbe: {
    httpGet: { path: '/healthz', port: 'http', scheme: 'HTTP', httpHeaders: [{ name: 'X-Probe', value: '' }] },
    initialDelaySeconds: 5,
    periodSeconds: 10,
    failureThreshold: 3,
  },
  readinessProbe: { tcpSocket: { port: 80 }, timeoutSeconds: 2, successThreshold: 1, terminationGracePeriodSeconds: 0 },
  startupProbe: { exec: { command: ['cat', '/tmp/ready'] } },
  lifecycle: { preStop: { exec: { command: ['sleep', '5'] } } },
  terminationMessagePath: '/dev/termination-log',
  terminationMessagePolicy: 'FallbackToLogsOnError',
  imagePullPolicy: 'IfNotPresent',
  securityContext: {
    capabilities: { add: ['NET_BIND_SERVICE'], drop: ['ALL'] },
    privileged: false,
    runAsUser: 1000,
    runAsGroup: 0,
    runAsNonRoot: true,
    readOnlyRootFilesystem: true,
    allowPrivilegeEscalation: false,
    seccompProfile: { type: 'RuntimeDefault' },
  },
  stdin: true,
  tty: true,
};

export const podSpec = {
  volumes: [
    { name: 'data', emptyDir: { medium: 'Memory', sizeLimit: '1Gi' } },
    { name: 'cfg', configMap: { name: 'settings', items: [{ key: 'a', path: 'a.conf', mode: 420 }], defaultMode: 0o644, optional: true } },
    { name: 'creds', secret: { secretName: 'creds', defaultMode: 256 } },
    { name: 'host', hostPath: { path: '/var/log', type: 'Directory' } },
  ],
  initContainers: [{ name: 'init', image: 'busybox', command: ['true'], restartPolicy: 'Always' }],
  containers: [container],
  restartPolicy: 'Always',
  terminationGracePeriodSeconds: 30,
  activeDeadlineSeconds: 600,
  dnsPolicy: 'ClusterFirst',
  nodeSelector: { 'kubernetes.io/os': 'linux' },
  serviceAccountName: 'web',
  automountServiceAccountToken: false,
  nodeName: 'node-1',
  hostNetwork: true,
  securityContext: { runAsUser: 1000, fsGroup: 2000, supplementalGroups: [3000, 4000], sysctls: [{ name: 'net.core.somaxconn', value: '1024' }] },
  imagePullSecrets: [{ name: 'registry' }],
  hostname: 'web-0',
  subdomain: 'web',
  affinity: {
    nodeAffinity: {
      requiredDuringSchedulingIgnoredDuringExecution: {
        nodeSelectorTerms: [{ matchExpressions: [{ key: 'zone', operator: 'In', values: ['a', 'b'] }], matchFields: [{ key: 'metadata.name', operator: 'NotIn', values: ['bad'] }] }],
      },
      preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 10, preference: { matchExpressions: [{ key: 'ssd', operator: 'Exists' }] } }],
    },
    podAffinity: {
      requiredDuringSchedulingIgnoredDuringExecution: [{ labelSelector: { matchLabels: { app: 'cache' } }, topologyKey: 'kubernetes.io/hostname', namespaces: ['default'] }],
    },
    podAntiAffinity: {
      preferredDuringSchedulingIgnoredDuringExecution: [
        { weight: 100, podAffinityTerm: { labelSelector: selector, topologyKey: 'zone', namespaceSelector: {} } },
      ],
    },
  },
  schedulerName: 'default-scheduler',
  tolerations: [
    { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
    { key: 'dedicated', operator: 'Equal', value: 'web', effect: 'NoSchedule' },
  ],
  priorityClassName: 'high',
  priority: 0,
  enableServiceLinks: true,
  topologySpreadConstraints: [{ maxSkew: 1, topologyKey: 'zone', whenUnsatisfiable: 'DoNotSchedule', labelSelector: { matchLabels: { app: 'web' } }, minDomains: 2, matchLabelKeys: ['pod-template-hash'] }],
};

const namespace: KObject = {
  apiVersion: 'v1',
  kind: 'Namespace',
  metadata: { name: 'team-a', labels: { 'kubernetes.io/metadata.name': 'team-a' } },
  spec: { finalizers: ['kubernetes'] },
  status: {
    phase: 'Terminating',
    conditions: [{ type: 'NamespaceDeletionContentFailure', status: 'False', lastTransitionTime: '2024-05-06T07:08:09Z', reason: 'ContentDeleted', message: 'All content successfully deleted' }],
  },
};

const configMap: KObject = {
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name: 'settings', namespace: 'default' },
  data: { 'app.conf': 'a=1\nb=2\n', blank: '' },
  binaryData: { 'logo.png': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0xff]).toString('base64') },
  immutable: false,
};

const secret: KObject = {
  apiVersion: 'v1',
  kind: 'Secret',
  metadata: { name: 'creds', namespace: 'default' },
  type: 'Opaque',
  data: { token: Buffer.from('s3cr3t').toString('base64'), bin: Buffer.from([0, 1, 2, 254, 255]).toString('base64') },
  stringData: { extra: 'plain text' },
  immutable: true,
};

const deployment: KObject = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: fullMetadata,
  spec: {
    replicas: 0,
    selector,
    template: { metadata: { labels: { app: 'web' }, annotations: { rev: '1' } }, spec: podSpec },
    strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 0, maxSurge: '25%' } },
    minReadySeconds: 5,
    revisionHistoryLimit: 10,
    paused: true,
    progressDeadlineSeconds: 600,
  },
  status: {
    observedGeneration: 3,
    replicas: 2,
    updatedReplicas: 2,
    readyReplicas: 1,
    availableReplicas: 1,
    unavailableReplicas: 1,
    collisionCount: 0,
    conditions: [{ type: 'Available', status: 'True', lastUpdateTime: '2024-01-02T03:04:05Z', lastTransitionTime: '2024-01-02T03:04:00Z', reason: 'MinimumReplicasAvailable', message: 'ok' }],
  },
};

const pod: KObject = {
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'web-0', namespace: 'default', uid: 'u-1', ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web-7d9', uid: 'u-2', controller: true }] },
  spec: podSpec,
  status: {
    phase: 'Running',
    conditions: [{ type: 'Ready', status: 'True', lastProbeTime: '2024-01-02T03:04:06Z', lastTransitionTime: '2024-01-02T03:04:07Z' }],
    hostIP: '10.0.0.1',
    podIP: '10.244.0.5',
    podIPs: [{ ip: '10.244.0.5' }, { ip: 'fd00::5' }],
    startTime: '2024-01-02T03:04:05Z',
    initContainerStatuses: [{ name: 'init', ready: true, restartCount: 0, image: 'busybox', imageID: '', state: { terminated: { exitCode: 0, reason: 'Completed', startedAt: '2024-01-02T03:04:05Z', finishedAt: '2024-01-02T03:04:06Z', containerID: 'sim://1' } } }],
    containerStatuses: [
      { name: 'app', ready: false, restartCount: 2, image: 'nginx:1.27', imageID: 'sim://nginx', containerID: 'sim://2', started: true, state: { running: { startedAt: '2024-01-02T03:04:08Z' } }, lastState: { terminated: { exitCode: 137, signal: 9, reason: 'OOMKilled', message: 'out of memory' } } },
      { name: 'side', ready: false, restartCount: 0, image: 'x', imageID: '', state: { waiting: { reason: 'ImagePullBackOff', message: 'pull failed' } } },
    ],
    qosClass: 'Burstable',
    nominatedNodeName: 'node-2',
  },
};

const node: KObject = {
  apiVersion: 'v1',
  kind: 'Node',
  metadata: { name: 'node-1', labels: { 'kubernetes.io/hostname': 'node-1' } },
  spec: { podCIDR: '10.244.0.0/24', podCIDRs: ['10.244.0.0/24'], providerID: 'sim://node-1', unschedulable: true, taints: [{ key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule', timeAdded: '2024-01-02T03:04:05Z' }, { key: 'dedicated', value: 'web', effect: 'NoExecute' }] },
  status: {
    capacity: { cpu: '4', memory: '16Gi', pods: '110' },
    allocatable: { cpu: '3800m', memory: '15Gi', pods: '110' },
    conditions: [{ type: 'Ready', status: 'True', lastHeartbeatTime: '2024-01-02T03:04:05Z', lastTransitionTime: '2024-01-01T00:00:00Z', reason: 'KubeletReady', message: 'kubelet is posting ready status' }],
    addresses: [{ type: 'InternalIP', address: '10.0.0.1' }, { type: 'Hostname', address: 'node-1' }],
    daemonEndpoints: { kubeletEndpoint: { Port: 10250 } },
    nodeInfo: { machineID: 'm', systemUUID: 's', bootID: 'b', kernelVersion: '6.1.0', osImage: 'SimOS', containerRuntimeVersion: 'sim://1.0', kubeletVersion: 'v1.32.0', kubeProxyVersion: '', operatingSystem: 'linux', architecture: 'amd64' },
    images: [{ names: ['nginx:1.27'], sizeBytes: 67_108_864 }],
  },
};

const ssar: KObject = {
  apiVersion: 'authorization.k8s.io/v1',
  kind: 'SelfSubjectAccessReview',
  metadata: {},
  spec: { resourceAttributes: { namespace: 'default', verb: 'get', group: 'apps', version: 'v1', resource: 'deployments', subresource: 'scale', name: 'web' } },
  status: { allowed: false, denied: true, reason: 'no rule', evaluationError: 'partial' },
};

const ssarNonResource: KObject = {
  apiVersion: 'authorization.k8s.io/v1',
  kind: 'SelfSubjectAccessReview',
  metadata: {},
  spec: { nonResourceAttributes: { path: '/healthz', verb: 'get' } },
  status: { allowed: true },
};

const sar: KObject = {
  apiVersion: 'authorization.k8s.io/v1',
  kind: 'SubjectAccessReview',
  metadata: { name: 'check' },
  spec: {
    resourceAttributes: { namespace: 'kube-system', verb: 'list', resource: 'pods', labelSelector: { rawSelector: 'app=web' }, fieldSelector: { requirements: [{ key: 'spec.nodeName', operator: 'In', values: ['n1'] }] } },
    user: 'jane',
    groups: ['system:authenticated', 'devs'],
    uid: 'u-jane',
    extra: { scopes: ['read', 'write'], empty: [] },
  },
  status: { allowed: true, reason: 'RBAC: allowed by ClusterRoleBinding "devs"' },
};

const eviction: KObject = {
  apiVersion: 'policy/v1',
  kind: 'Eviction',
  metadata: { name: 'web-0', namespace: 'default' },
  deleteOptions: { gracePeriodSeconds: 0, preconditions: { uid: 'u-1', resourceVersion: '42' }, orphanDependents: false, propagationPolicy: 'Background', dryRun: ['All'] },
};

const controllerRevision: KObject = {
  apiVersion: 'apps/v1',
  kind: 'ControllerRevision',
  metadata: { name: 'ds-1-5d8f', namespace: 'default', ownerReferences: [{ apiVersion: 'apps/v1', kind: 'DaemonSet', name: 'ds-1', uid: 'u-3', controller: true, blockOwnerDeletion: true }] },
  data: { spec: { template: { $patch: 'replace', spec: { containers: [{ name: 'c', image: 'i' }] } } }, list: [1, 'two', null, true], n: 1.5 },
  revision: 1,
};

export const objects: Record<string, KObject> = {
  Namespace: namespace,
  ConfigMap: configMap,
  Secret: secret,
  Deployment: deployment,
  Pod: pod,
  Node: node,
  'SelfSubjectAccessReview (resource)': ssar,
  'SelfSubjectAccessReview (non-resource)': ssarNonResource,
  SubjectAccessReview: sar,
  Eviction: eviction,
  ControllerRevision: controllerRevision,
  ...accessObjects,
  ...kindObjects,
  ...batchObjects,
  ...admissionObjects,
};

/** A list of the given kind, with items stripped of apiVersion and kind as servers send them. */
export function listOf(obj: KObject, count: number): KObject {
  const { apiVersion, kind, ...item } = obj;
  return {
    apiVersion,
    kind: `${kind}List`,
    metadata: { resourceVersion: '99', continue: 'eyJ2IjoxfQ', remainingItemCount: 0 },
    items: Array.from({ length: count }, () => item),
  } as unknown as KObject;
}
