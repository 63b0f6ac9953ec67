// How list fields merge: the `patchStrategy`/`patchMergeKey` struct tags (strategic merge patch)
// and the `+listType`/`+listMapKey` markers (server-side apply) of k8s.io/api, which the client
// models do not carry. Copied from core/v1, apps/v1, policy/v1, admissionregistration/v1 and apimachinery meta/v1 types.go
// for the types the server serves; a list not named here is atomic with no patch strategy.

export interface ListKeys {
  strategy?: 'merge' | 'retainKeys' | 'merge,retainKeys';
  mergeKey?: string;
  listType?: 'atomic' | 'set' | 'map';
  mapKeys?: string[];
}

const byName = (strategy: ListKeys['strategy'] = 'merge'): ListKeys => ({ strategy, mergeKey: 'name', listType: 'map', mapKeys: ['name'] });
const byType: ListKeys = { strategy: 'merge', mergeKey: 'type', listType: 'map', mapKeys: ['type'] };
const ATOMIC: ListKeys = { listType: 'atomic' };

const CONTAINER: Record<string, ListKeys> = {
  ports: { strategy: 'merge', mergeKey: 'containerPort', listType: 'map', mapKeys: ['containerPort', 'protocol'] },
  env: byName(),
  volumeMounts: { strategy: 'merge', mergeKey: 'mountPath', listType: 'map', mapKeys: ['mountPath'] },
  volumeDevices: { strategy: 'merge', mergeKey: 'devicePath', listType: 'map', mapKeys: ['devicePath'] },
  command: ATOMIC,
  args: ATOMIC,
  envFrom: ATOMIC,
  resizePolicy: ATOMIC,
};

const WEBHOOK: Record<string, ListKeys> = { rules: ATOMIC, admissionReviewVersions: ATOMIC, matchConditions: byName() };

/** By Go type name, then JSON field name. */
const TABLE: Record<string, Record<string, ListKeys>> = {
  ObjectMeta: {
    finalizers: { strategy: 'merge', listType: 'set' },
    ownerReferences: { strategy: 'merge', mergeKey: 'uid', listType: 'map', mapKeys: ['uid'] },
  },
  PodSpec: {
    volumes: byName('merge,retainKeys'),
    initContainers: byName(),
    containers: byName(),
    ephemeralContainers: byName(),
    imagePullSecrets: byName(),
    hostAliases: { strategy: 'merge', mergeKey: 'ip', listType: 'map', mapKeys: ['ip'] },
    topologySpreadConstraints: { strategy: 'merge', mergeKey: 'topologyKey', listType: 'map', mapKeys: ['topologyKey', 'whenUnsatisfiable'] },
    schedulingGates: byName(),
    resourceClaims: byName('merge,retainKeys'),
    tolerations: ATOMIC,
    readinessGates: ATOMIC,
  },
  Container: CONTAINER,
  EphemeralContainer: CONTAINER,
  PodStatus: {
    conditions: byType,
    podIPs: { strategy: 'merge', mergeKey: 'ip', listType: 'map', mapKeys: ['ip'] },
    hostIPs: { strategy: 'merge', mergeKey: 'ip', listType: 'atomic' },
    resourceClaimStatuses: byName('merge,retainKeys'),
    initContainerStatuses: ATOMIC,
    containerStatuses: ATOMIC,
    ephemeralContainerStatuses: ATOMIC,
  },
  NodeSpec: {
    podCIDRs: { strategy: 'merge', listType: 'set' },
    taints: ATOMIC,
  },
  NodeStatus: {
    conditions: byType,
    addresses: byType,
  },
  NamespaceStatus: { conditions: byType },
  ServiceSpec: {
    ports: { strategy: 'merge', mergeKey: 'port', listType: 'map', mapKeys: ['port', 'protocol'] },
  },
  ServiceStatus: { conditions: byType },
  ServiceAccount: { secrets: byName() },
  DeploymentStatus: { conditions: byType },
  ReplicaSetStatus: { conditions: byType },
  DaemonSetStatus: { conditions: byType },
  StatefulSetStatus: { conditions: byType },
  PodDisruptionBudgetStatus: { conditions: byType },
  LabelSelector: { matchExpressions: ATOMIC },
  MutatingWebhookConfiguration: { webhooks: byName() },
  ValidatingWebhookConfiguration: { webhooks: byName() },
  MutatingWebhook: WEBHOOK,
  ValidatingWebhook: WEBHOOK,
  RuleWithOperations: { operations: ATOMIC, apiGroups: ATOMIC, apiVersions: ATOMIC, resources: ATOMIC },
};

// Callers share these objects: make sure none of them edits the table.
for (const fields of Object.values(TABLE))
  for (const keys of Object.values(fields)) {
    if (keys.mapKeys) Object.freeze(keys.mapKeys);
    Object.freeze(keys);
  }

/** `V1PodSpec`, `CoreV1Event`, `io.k8s.api.core.v1.PodSpec` or `PodSpec` → `PodSpec`. */
function goName(modelName: string): string {
  const dot = modelName.lastIndexOf('.');
  const last = dot >= 0 ? modelName.slice(dot + 1) : modelName;
  return last.replace(/^(?:[A-Z][a-z]+)?V\d+(?:(?:alpha|beta)\d+)?(?=[A-Z])/, '');
}

/**
 * How the list field `field` of model `modelName` merges, or undefined when it has no markers.
 * `modelName` may be the client class (`V1PodSpec`), the OpenAPI name or the Go type name.
 */
export function listKeys(modelName: string, field: string): ListKeys | undefined {
  const entry = TABLE[goName(modelName)];
  return entry && Object.hasOwn(entry, field) ? entry[field] : undefined;
}

/** Every (Go type, field) pair in the table, for tests. */
export function listKeyEntries(): [string, string][] {
  return Object.entries(TABLE).flatMap(([type, fields]) => Object.keys(fields).map((f): [string, string] => [type, f]));
}
