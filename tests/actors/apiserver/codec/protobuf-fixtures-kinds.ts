// Objects of the remaining built-in kinds the Protobuf codec serves (Service, Endpoints, EndpointSlice, Event,
// PodTemplate, the apps workloads, Lease, PodDisruptionBudget, the flowcontrol kinds), in their
// JSON shape as a real cluster stores them, with every field the codec knows set at least once.
// As in protobuf-fixtures.ts, no omitempty field holds its zero value.
import type { KObject } from '../../../../actors/api/types.ts';

const meta = (name: string, extra: Record<string, unknown> = {}) => ({
  name, namespace: 'shop', uid: `0b5e1c7a-0000-4000-8000-${name.padStart(12, '0').slice(-12)}`, resourceVersion: '812',
  creationTimestamp: '2024-05-06T07:08:09Z', labels: { app: 'shop' }, ...extra,
});

const template = {
  metadata: { labels: { app: 'shop', tier: 'web' }, annotations: { 'kubectl.kubernetes.io/restartedAt': '2024-05-06T07:08:09Z' } },
  spec: {
    containers: [{ name: 'web', image: 'nginx:1.27', ports: [{ containerPort: 80, protocol: 'TCP' }], resources: { requests: { cpu: '100m' } },
      terminationMessagePath: '/dev/termination-log', terminationMessagePolicy: 'File', imagePullPolicy: 'IfNotPresent' }],
    restartPolicy: 'Always', terminationGracePeriodSeconds: 30, dnsPolicy: 'ClusterFirst', schedulerName: 'default-scheduler', securityContext: {},
  },
};

const service: KObject = {
  apiVersion: 'v1', kind: 'Service', metadata: meta('shop'),
  spec: {
    ports: [{ name: 'http', protocol: 'TCP', appProtocol: 'http', port: 80, targetPort: 'http', nodePort: 30080 }, { name: 'metrics', port: 9090, targetPort: 0 }],
    selector: { app: 'shop' }, clusterIP: '10.96.0.20', clusterIPs: ['10.96.0.20', 'fd00::20'], type: 'LoadBalancer', externalIPs: ['192.0.2.7'],
    sessionAffinity: 'ClientIP', sessionAffinityConfig: { clientIP: { timeoutSeconds: 10800 } }, loadBalancerIP: '192.0.2.8', loadBalancerSourceRanges: ['0.0.0.0/0'],
    externalTrafficPolicy: 'Local', healthCheckNodePort: 31000, publishNotReadyAddresses: true, ipFamilies: ['IPv4', 'IPv6'], ipFamilyPolicy: 'PreferDualStack',
    allocateLoadBalancerNodePorts: false, loadBalancerClass: 'example.com/lb', internalTrafficPolicy: 'Cluster', trafficDistribution: 'PreferClose',
  },
  status: {
    loadBalancer: { ingress: [{ ip: '192.0.2.8', ipMode: 'VIP', ports: [{ port: 80, protocol: 'TCP', error: '' }] }, { hostname: 'lb.example.com', ipMode: 'Proxy' }] },
    conditions: [{ type: 'Ready', status: 'True', observedGeneration: 2, lastTransitionTime: '2024-05-06T07:08:10Z', reason: 'Allocated', message: '' }],
  },
};

const externalName: KObject = {
  apiVersion: 'v1', kind: 'Service', metadata: meta('db'),
  spec: { type: 'ExternalName', externalName: 'db.example.com', sessionAffinity: 'None' },
  status: { loadBalancer: {} },
};

const endpoints: KObject = {
  apiVersion: 'v1', kind: 'Endpoints', metadata: meta('shop'),
  subsets: [{
    addresses: [{ ip: '10.0.1.5', hostname: 'shop-0', nodeName: 'node-1', targetRef: { kind: 'Pod', namespace: 'shop', name: 'shop-0', uid: 'u-1' } }],
    notReadyAddresses: [{ ip: '10.0.2.6', nodeName: 'node-2' }],
    ports: [{ name: 'http', port: 8080, protocol: 'TCP', appProtocol: 'http' }],
  }],
};

const event: KObject = {
  apiVersion: 'v1', kind: 'Event', metadata: meta('shop-0.17c5a0a2e5e6f7a8'),
  involvedObject: { kind: 'Pod', namespace: 'shop', name: 'shop-0', uid: 'u-1', apiVersion: 'v1', resourceVersion: '800', fieldPath: 'spec.containers{web}' },
  reason: 'Pulling', message: 'Pulling image "nginx:1.27"', source: { component: 'kubelet', host: 'node-1' },
  firstTimestamp: '2024-05-06T07:08:09Z', lastTimestamp: '2024-05-06T07:09:09Z', count: 3, type: 'Normal',
  eventTime: '2024-05-06T07:08:09.123456Z', series: { count: 2, lastObservedTime: '2024-05-06T07:09:09.000001Z' }, action: 'Pull',
  related: { kind: 'Node', name: 'node-1', apiVersion: 'v1' }, reportingComponent: 'kubelet', reportingInstance: 'node-1',
};

const podTemplate: KObject = { apiVersion: 'v1', kind: 'PodTemplate', metadata: meta('shop-template'), template };

const replicaSet: KObject = {
  apiVersion: 'apps/v1', kind: 'ReplicaSet',
  metadata: meta('shop-7d9f8c6b5', { generation: 2, annotations: { 'deployment.kubernetes.io/revision': '4', 'deployment.kubernetes.io/revision-history': '1,2' },
    ownerReferences: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'shop', uid: 'u-d', controller: true, blockOwnerDeletion: true }] }),
  spec: { replicas: 0, minReadySeconds: 5, selector: { matchLabels: { app: 'shop', 'pod-template-hash': '7d9f8c6b5' } }, template },
  status: { replicas: 3, fullyLabeledReplicas: 3, readyReplicas: 2, availableReplicas: 2, observedGeneration: 2,
    conditions: [{ type: 'ReplicaFailure', status: 'True', lastTransitionTime: '2024-05-06T07:08:09Z', reason: 'FailedCreate', message: 'quota' }] },
};

const daemonSet: KObject = {
  apiVersion: 'apps/v1', kind: 'DaemonSet', metadata: meta('agent', { generation: 1 }),
  spec: {
    selector: { matchLabels: { app: 'shop' } }, template,
    updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: '10%' } }, minReadySeconds: 3, revisionHistoryLimit: 10,
  },
  status: { currentNumberScheduled: 2, numberMisscheduled: 0, desiredNumberScheduled: 2, numberReady: 1, observedGeneration: 1, updatedNumberScheduled: 2,
    numberAvailable: 1, numberUnavailable: 1, collisionCount: 0,
    conditions: [{ type: 'Progressing', status: 'False', lastTransitionTime: '2024-05-06T07:08:09Z', reason: 'x', message: 'y' }] },
};

const claim = {
  metadata: { name: 'data', labels: { app: 'shop' }, annotations: { 'volume.beta.kubernetes.io/storage-provisioner': 'example.com/csi' } },
  spec: {
    accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' }, limits: { storage: '2Gi' } }, volumeName: 'pv-1',
    selector: { matchLabels: { disk: 'ssd' } }, storageClassName: '', volumeMode: 'Filesystem',
    dataSource: { apiGroup: 'snapshot.storage.k8s.io', kind: 'VolumeSnapshot', name: 'snap' },
    dataSourceRef: { apiGroup: 'snapshot.storage.k8s.io', kind: 'VolumeSnapshot', name: 'snap', namespace: 'shop' }, volumeAttributesClassName: 'gold',
  },
  status: {
    phase: 'Bound', accessModes: ['ReadWriteOnce'], capacity: { storage: '1Gi' }, allocatedResources: { storage: '1Gi' },
    allocatedResourceStatuses: { storage: 'ControllerResizeInProgress' }, currentVolumeAttributesClassName: 'silver',
    conditions: [{ type: 'Resizing', status: 'True', lastProbeTime: '2024-05-06T07:08:09Z', lastTransitionTime: '2024-05-06T07:08:09Z', reason: 'r', message: 'm' }],
    modifyVolumeStatus: { targetVolumeAttributesClassName: 'gold', status: 'InProgress' },
  },
};

const statefulSet: KObject = {
  apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: meta('db', { generation: 3 }),
  spec: {
    replicas: 3, selector: { matchLabels: { app: 'shop' } }, template, volumeClaimTemplates: [claim], serviceName: 'db', podManagementPolicy: 'Parallel',
    updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 0, maxUnavailable: '50%' } }, revisionHistoryLimit: 10, minReadySeconds: 2,
    persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Delete', whenScaled: 'Retain' }, ordinals: { start: 0 },
  },
  status: { observedGeneration: 3, replicas: 3, readyReplicas: 2, currentReplicas: 1, updatedReplicas: 2, currentRevision: 'db-6b8f', updateRevision: 'db-7c9a',
    collisionCount: 0, availableReplicas: 2, conditions: [{ type: 'x', status: 'Unknown', lastTransitionTime: '2024-05-06T07:08:09Z' }] },
};

const lease: KObject = {
  apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: meta('kube-controller-manager'),
  spec: { holderIdentity: 'cm-0_2f1c', leaseDurationSeconds: 15, acquireTime: '2024-05-06T07:08:09.000000Z', renewTime: '2024-05-06T07:10:11.654321Z',
    leaseTransitions: 0, strategy: 'OldestEmulationVersion', preferredHolder: '' },
};

const pdb: KObject = {
  apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: meta('shop', { generation: 1 }),
  spec: { minAvailable: 0, selector: { matchLabels: { app: 'shop' } }, unhealthyPodEvictionPolicy: 'AlwaysAllow' },
  status: { observedGeneration: 1, disruptedPods: { 'shop-0': '2024-05-06T07:08:09Z' }, disruptionsAllowed: 0, currentHealthy: 2, desiredHealthy: 2, expectedPods: 3,
    conditions: [{ type: 'DisruptionAllowed', status: 'False', observedGeneration: 1, lastTransitionTime: '2024-05-06T07:08:09Z', reason: 'InsufficientPods', message: '' }] },
};

const FLOWCONTROL = 'flowcontrol.apiserver.k8s.io/v1';
const flowSchema: KObject = {
  apiVersion: FLOWCONTROL, kind: 'FlowSchema', metadata: { name: 'shop-controllers', uid: 'u-f', resourceVersion: '9', generation: 1 },
  spec: {
    priorityLevelConfiguration: { name: 'workload-high' }, matchingPrecedence: 800, distinguisherMethod: { type: 'ByUser' },
    rules: [{
      subjects: [{ kind: 'ServiceAccount', serviceAccount: { namespace: 'shop', name: 'operator' } }, { kind: 'User', user: { name: 'alice' } }, { kind: 'Group', group: { name: 'ops' } }],
      resourceRules: [{ verbs: ['*'], apiGroups: ['apps'], resources: ['deployments'], namespaces: ['shop'] }, { verbs: ['get'], apiGroups: [''], resources: ['nodes'], clusterScope: true, namespaces: [] }],
      nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/healthz', '/version'] }],
    }],
  },
  status: { conditions: [{ type: 'Dangling', status: 'False', lastTransitionTime: '2024-05-06T07:08:09Z', reason: 'Found', message: 'This FlowSchema references an existing PriorityLevelConfiguration' }] },
};

const priorityLevel: KObject = {
  apiVersion: FLOWCONTROL, kind: 'PriorityLevelConfiguration', metadata: { name: 'workload-high', uid: 'u-p', resourceVersion: '8' },
  spec: { type: 'Limited', limited: { nominalConcurrencyShares: 40, lendablePercent: 50, borrowingLimitPercent: 0,
    limitResponse: { type: 'Queue', queuing: { queues: 128, handSize: 6, queueLengthLimit: 50 } } } },
  status: {},
};

const exemptLevel: KObject = {
  apiVersion: FLOWCONTROL, kind: 'PriorityLevelConfiguration', metadata: { name: 'exempt' },
  spec: { type: 'Exempt', exempt: { nominalConcurrencyShares: 0, lendablePercent: 0 } },
};

const endpointSlice: KObject = {
  apiVersion: 'discovery.k8s.io/v1', kind: 'EndpointSlice',
  metadata: meta('shop-x7k2p', { labels: { 'kubernetes.io/service-name': 'shop', 'endpointslice.kubernetes.io/managed-by': 'endpointslice-controller.k8s.io' },
    ownerReferences: [{ apiVersion: 'v1', kind: 'Service', name: 'shop', uid: '0b5e1c7a-0000-4000-8000-000000000001', controller: true, blockOwnerDeletion: true }] }),
  addressType: 'IPv4',
  endpoints: [
    { addresses: ['10.244.0.11'], conditions: { ready: true, serving: true, terminating: false }, hostname: 'shop-0',
      targetRef: { kind: 'Pod', namespace: 'shop', name: 'shop-0', uid: '0b5e1c7a-0000-4000-8000-000000000002' }, nodeName: 'node-0', zone: 'zone-a',
      hints: { forZones: [{ name: 'zone-a' }] } },
    // A terminating pod: not ready, still serving; the ready pointer false is kept.
    { addresses: ['10.244.1.12'], conditions: { ready: false, serving: true, terminating: true }, nodeName: 'node-1', zone: 'zone-b' },
  ],
  ports: [{ name: 'http', protocol: 'TCP', port: 8080, appProtocol: 'http' }, { name: '', protocol: 'UDP', port: 53 }],
};

export const kindObjects: Record<string, KObject> = {
  'Service (LoadBalancer)': service,
  'Service (ExternalName)': externalName,
  Endpoints: endpoints,
  EndpointSlice: endpointSlice,
  Event: event,
  PodTemplate: podTemplate,
  ReplicaSet: replicaSet,
  DaemonSet: daemonSet,
  StatefulSet: statefulSet,
  Lease: lease,
  PodDisruptionBudget: pdb,
  FlowSchema: flowSchema,
  'PriorityLevelConfiguration (Limited)': priorityLevel,
  'PriorityLevelConfiguration (Exempt)': exemptLevel,
};
