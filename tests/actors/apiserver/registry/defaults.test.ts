import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { KObject } from '../../../../actors/api/types.ts';
import type { ResourceType } from '../../../../actors/api/resources.ts';
import { defaultTolerations } from '../../../../actors/apiserver/registry/defaults-pod.ts';
import { kindOf } from '../../../../actors/apiserver/registry/kinds/index.ts';
import { imageTag } from '../../../../actors/apiserver/registry/defaults-pod.ts';

type Spec = Record<string, any>;

/** What a built-in kind's defaulting does to `obj`, in place. */
const applyDefaults = (resource: string, group: string, obj: KObject) => kindOf({ group, resource } as ResourceType).defaults(obj);

function defaulted(resource: string, group: string, o: Record<string, unknown>): KObject & Spec {
  const obj = { metadata: { name: 'x' }, ...structuredClone(o) } as KObject;
  applyDefaults(resource, group, obj);
  return obj as KObject & Spec;
}

/** The container and pod spec fields a 1.32 server fills before admission, for `image: nginx`. */
const DEFAULTED_CONTAINER = {
  name: 'c', image: 'nginx', imagePullPolicy: 'Always', resources: {},
  terminationMessagePath: '/dev/termination-log', terminationMessagePolicy: 'File',
};
const DEFAULTED_TEMPLATE_SPEC = {
  containers: [DEFAULTED_CONTAINER], dnsPolicy: 'ClusterFirst', restartPolicy: 'Always', schedulerName: 'default-scheduler',
  securityContext: {}, terminationGracePeriodSeconds: 30,
};

test('a minimal pod gets what a real server returns, short of admission (service account, tolerations, priority)', () => {
  const pod = defaulted('pods', '', { spec: { containers: [{ name: 'c', image: 'nginx' }] } });
  assert.equal(pod.spec, { ...DEFAULTED_TEMPLATE_SPEC, enableServiceLinks: true });
});

test('image pull policy is Always only for :latest or untagged images', () => {
  const policy = (image: string) => defaulted('pods', '', { spec: { containers: [{ name: 'c', image }] } }).spec.containers[0].imagePullPolicy;
  assert.is(policy('nginx'), 'Always');
  assert.is(policy('nginx:latest'), 'Always');
  assert.is(policy('registry.local:5000/team/app'), 'Always');
  assert.is(policy('nginx:1.25'), 'IfNotPresent');
  assert.is(policy('registry.local:5000/team/app:v2'), 'IfNotPresent');
  assert.is(policy(`nginx@sha256:${'a'.repeat(64)}`), 'IfNotPresent');
  assert.is(policy(`nginx:latest@sha256:${'a'.repeat(64)}`), 'Always');
  assert.is(policy('Not A Reference'), 'IfNotPresent');
  assert.is(imageTag('docker.io/library/busybox:1.36'), '1.36');
  assert.is(imageTag(''), '');
});

test('explicit values survive defaulting, including Go zero values of pointer fields', () => {
  const pod = defaulted('pods', '', { spec: { containers: [{ name: 'c', image: 'nginx', imagePullPolicy: 'Never' }], restartPolicy: 'OnFailure',
    terminationGracePeriodSeconds: 0, enableServiceLinks: false, priorityClassName: 'system-node-critical' } });
  assert.is(pod.spec.containers[0].imagePullPolicy, 'Never');
  assert.is(pod.spec.restartPolicy, 'OnFailure');
  assert.is(pod.spec.terminationGracePeriodSeconds, 0);
  assert.is(pod.spec.enableServiceLinks, false);
  assert.not.ok('priority' in pod.spec, 'a class\'s priority is the Priority admission plugin\'s to set');
  const d = defaulted('deployments', 'apps', { spec: { replicas: 0, template: { spec: { containers: [] } } } });
  assert.is(d.spec.replicas, 0);
});

test('containers, probes, volumes and env refs get their nested defaults', () => {
  const pod = defaulted('pods', '', { spec: {
    containers: [{ name: 'c', image: 'app:1', ports: [{ containerPort: 8080 }],
      env: [{ name: 'NODE', valueFrom: { fieldRef: { fieldPath: 'spec.nodeName' } } }],
      livenessProbe: { httpGet: { port: 8080 } }, readinessProbe: { grpc: { port: 9090 }, periodSeconds: 5 },
      lifecycle: { preStop: { httpGet: { port: 8080, path: '/quit' } } } }],
    volumes: [{ name: 'scratch' }, { name: 'cfg', configMap: { name: 'cfg' } }, { name: 'host', hostPath: { path: '/var/log' } },
      { name: 'token', projected: { sources: [{ serviceAccountToken: { path: 'token' } }] } }],
  } });
  const c = pod.spec.containers[0];
  assert.equal(c.ports, [{ containerPort: 8080, protocol: 'TCP' }]);
  assert.equal(c.env[0].valueFrom.fieldRef, { fieldPath: 'spec.nodeName', apiVersion: 'v1' });
  assert.equal(c.livenessProbe, { httpGet: { port: 8080, path: '/', scheme: 'HTTP' }, timeoutSeconds: 1, periodSeconds: 10, successThreshold: 1, failureThreshold: 3 });
  assert.equal(c.readinessProbe.grpc, { port: 9090, service: '' });
  assert.is(c.readinessProbe.periodSeconds, 5);
  assert.equal(c.lifecycle.preStop.httpGet, { port: 8080, path: '/quit', scheme: 'HTTP' });
  assert.equal(pod.spec.volumes, [
    { name: 'scratch', emptyDir: {} },
    { name: 'cfg', configMap: { name: 'cfg', defaultMode: 420 } },
    { name: 'host', hostPath: { path: '/var/log', type: '' } },
    { name: 'token', projected: { sources: [{ serviceAccountToken: { path: 'token', expirationSeconds: 3600 } }], defaultMode: 420 } },
  ]);
});

test('only pods copy limits into requests and host ports from container ports', () => {
  const spec = { hostNetwork: true, containers: [{ name: 'c', image: 'i:1', ports: [{ containerPort: 53 }], resources: { limits: { cpu: '1' }, requests: { memory: '1Gi' } } }] };
  const pod = defaulted('pods', '', { spec });
  assert.equal(pod.spec.containers[0].resources, { limits: { cpu: '1' }, requests: { memory: '1Gi', cpu: '1' } });
  assert.equal(pod.spec.containers[0].ports, [{ containerPort: 53, hostPort: 53, protocol: 'TCP' }]);
  const tpl = defaulted('podtemplates', '', { template: { spec } });
  assert.equal(tpl.template.spec.containers[0].resources, spec.containers[0].resources);
  assert.equal(tpl.template.spec.containers[0].ports, [{ containerPort: 53, protocol: 'TCP' }]);
  assert.not.ok('enableServiceLinks' in tpl.template.spec);
  assert.not.ok('priority' in tpl.template.spec);
});

test('keys that name Object.prototype members are plain data', () => {
  const pod = defaulted('pods', '', { spec: { priorityClassName: 'constructor', containers: [{ name: 'c', image: 'i:1',
    resources: { limits: { toString: '1' } } }], volumes: [{ name: 'v', toString: {} }] } });
  assert.equal(pod.spec.volumes, [{ name: 'v', toString: {} }]);
  assert.equal(pod.spec.containers[0].resources.requests, { toString: '1' });
});

test('a deployment gets one replica, a 25%/25% rolling update, history 10, a 600s deadline and a defaulted template', () => {
  const d = defaulted('deployments', 'apps', { spec: { selector: { matchLabels: { app: 'web' } },
    template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } } });
  assert.equal(d.spec, {
    selector: { matchLabels: { app: 'web' } }, replicas: 1,
    strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '25%', maxSurge: '25%' } },
    revisionHistoryLimit: 10, progressDeadlineSeconds: 600,
    template: { metadata: { labels: { app: 'web' } }, spec: DEFAULTED_TEMPLATE_SPEC },
  });
  const recreate = defaulted('deployments', 'apps', { spec: { strategy: { type: 'Recreate' } } });
  assert.equal(recreate.spec.strategy, { type: 'Recreate' });
});

test('replica sets, daemon sets and stateful sets get their workload defaults', () => {
  assert.is(defaulted('replicasets', 'apps', { spec: {} }).spec.replicas, 1);
  const ds = defaulted('daemonsets', 'apps', { spec: {} });
  assert.equal(ds.spec.updateStrategy, { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: 0 } });
  assert.is(ds.spec.revisionHistoryLimit, 10);
  const sts = defaulted('statefulsets', 'apps', { spec: { volumeClaimTemplates: [{ metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'] } }] } });
  assert.is(sts.spec.replicas, 1);
  assert.is(sts.spec.podManagementPolicy, 'OrderedReady');
  assert.equal(sts.spec.updateStrategy, { type: 'RollingUpdate', rollingUpdate: { partition: 0 } });
  assert.equal(sts.spec.persistentVolumeClaimRetentionPolicy, { whenDeleted: 'Retain', whenScaled: 'Retain' });
  assert.is(sts.spec.revisionHistoryLimit, 10);
  assert.equal(sts.spec.volumeClaimTemplates[0], { metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], volumeMode: 'Filesystem' }, status: { phase: 'Pending' } });
  assert.equal(sts.spec.template.spec.dnsPolicy, 'ClusterFirst');
  // An explicit RollingUpdate without a rollingUpdate block gets no partition.
  assert.equal(defaulted('statefulsets', 'apps', { spec: { updateStrategy: { type: 'RollingUpdate' } } }).spec.updateStrategy, { type: 'RollingUpdate' });
});

test('a service defaults to ClusterIP with no affinity, TCP ports aimed at the same target port', () => {
  const svc = defaulted('services', '', { spec: { selector: { app: 'web' }, ports: [{ port: 80 }, { port: 53, protocol: 'UDP', targetPort: 'dns' }] } });
  assert.equal(svc.spec, { selector: { app: 'web' }, type: 'ClusterIP', sessionAffinity: 'None', internalTrafficPolicy: 'Cluster',
    ports: [{ port: 80, protocol: 'TCP', targetPort: 80 }, { port: 53, protocol: 'UDP', targetPort: 'dns' }] });
  const lb = defaulted('services', '', { spec: { type: 'LoadBalancer', sessionAffinity: 'ClientIP', ports: [{ port: 443, targetPort: 0 }] },
    status: { loadBalancer: { ingress: [{ ip: '1.2.3.4' }, { hostname: 'lb' }] } } });
  assert.is(lb.spec.externalTrafficPolicy, 'Cluster');
  assert.is(lb.spec.allocateLoadBalancerNodePorts, true);
  assert.equal(lb.spec.sessionAffinityConfig, { clientIP: { timeoutSeconds: 10800 } });
  assert.is(lb.spec.ports[0].targetPort, 443);
  assert.equal(lb.status.loadBalancer.ingress, [{ ip: '1.2.3.4', ipMode: 'VIP' }, { hostname: 'lb' }]);
  assert.not.ok('internalTrafficPolicy' in defaulted('services', '', { spec: { type: 'ExternalName', externalName: 'db' } }).spec);
});

test('secrets default to Opaque, namespaces to Active with the kubernetes finalizer and name label', () => {
  assert.is(defaulted('secrets', '', {}).type, 'Opaque');
  assert.is(defaulted('secrets', '', { type: 'kubernetes.io/tls' }).type, 'kubernetes.io/tls');
  const ns = defaulted('namespaces', '', { metadata: { name: 'team', labels: { a: 'b' } } });
  assert.equal(ns.metadata.labels, { a: 'b', 'kubernetes.io/metadata.name': 'team' });
  assert.equal(ns.spec, { finalizers: ['kubernetes'] });
  assert.equal(ns.status, { phase: 'Active' });
  assert.equal(defaulted('namespaces', '', { spec: { finalizers: [] }, status: { phase: 'Terminating' } }).spec.finalizers, []);
  assert.is(defaulted('namespaces', '', { status: { phase: 'Terminating' } }).status.phase, 'Terminating');
});

test('a node\'s allocatable defaults to a copy of its capacity', () => {
  const node = defaulted('nodes', '', { status: { capacity: { cpu: '4', pods: '110' } } });
  assert.equal(node.status.allocatable, { cpu: '4', pods: '110' });
  assert.is.not(node.status.allocatable, node.status.capacity);
  assert.equal(defaulted('nodes', '', { spec: {} }), { metadata: { name: 'x' }, spec: {} });
});

test('resources without defaults are left untouched', () => {
  for (const [resource, group] of [['configmaps', ''], ['events', ''], ['leases', 'coordination.k8s.io'], ['poddisruptionbudgets', 'policy'], ['controllerrevisions', 'apps']]) {
    const o = { data: { a: '1' }, spec: { minAvailable: 1 } };
    assert.equal(defaulted(resource, group, o), { metadata: { name: 'x' }, ...o }, resource);
  }
});

test('defaulting twice is the same as defaulting once', () => {
  const fixtures: [string, string, Record<string, unknown>][] = [
    ['pods', '', { spec: { hostNetwork: true, containers: [{ name: 'c', image: 'nginx', ports: [{ containerPort: 80 }], resources: { limits: { cpu: '1' } } }],
      volumes: [{ name: 'v' }, { name: 's', secret: { secretName: 's' } }] } }],
    ['podtemplates', '', { template: { spec: { containers: [{ name: 'c', image: 'nginx' }] } } }],
    ['deployments', 'apps', { spec: { template: { spec: { containers: [{ name: 'c', image: 'nginx' }] } } } }],
    ['replicasets', 'apps', { spec: {} }],
    ['daemonsets', 'apps', { spec: {} }],
    ['statefulsets', 'apps', { spec: { volumeClaimTemplates: [{ spec: {} }] } }],
    ['services', '', { spec: { type: 'LoadBalancer', sessionAffinity: 'ClientIP', ports: [{ port: 80 }] } }],
    ['secrets', '', {}],
    ['namespaces', '', {}],
    ['nodes', '', { status: { capacity: { cpu: '2' } } }],
  ];
  for (const [resource, group, o] of fixtures) {
    const once = defaulted(resource, group, o);
    const twice = structuredClone(once);
    applyDefaults(resource, group, twice);
    assert.equal(twice, once, resource);
  }
});

test('default tolerations add not-ready and unreachable NoExecute tolerations with the given seconds', () => {
  const pod = { metadata: { name: 'p' }, spec: { containers: [] } } as KObject & Spec;
  defaultTolerations(pod);
  assert.equal(pod.spec.tolerations, [
    { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
    { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
  ]);
  defaultTolerations(pod);
  assert.is(pod.spec.tolerations.length, 2);
  const custom = { metadata: { name: 'p' }, spec: { tolerations: [{ key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 5 }] } } as KObject & Spec;
  defaultTolerations(custom, 60, 120);
  assert.equal(custom.spec.tolerations.map((t: Spec) => [t.key, t.tolerationSeconds]), [['node.kubernetes.io/unreachable', 5], ['node.kubernetes.io/not-ready', 60]]);
});

test('a toleration with an empty key or effect already tolerates both taints', () => {
  const everything = { metadata: { name: 'p' }, spec: { tolerations: [{ operator: 'Exists' }] } } as KObject & Spec;
  defaultTolerations(everything);
  assert.equal(everything.spec.tolerations, [{ operator: 'Exists' }]);
  const anyEffect = { metadata: { name: 'p' }, spec: { tolerations: [{ key: 'node.kubernetes.io/not-ready', operator: 'Exists' }] } } as KObject & Spec;
  defaultTolerations(anyEffect);
  assert.equal(anyEffect.spec.tolerations.map((t: Spec) => t.key), ['node.kubernetes.io/not-ready', 'node.kubernetes.io/unreachable']);
});

test.run();
