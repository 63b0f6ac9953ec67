// Pod spec defaults, for pods and for every pod template (kubernetes pkg/apis/core/v1 defaults.go
// SetDefaults_PodSpec, SetDefaults_Container, SetDefaults_Volume, SetDefaults_Probe, ..., called as
// zz_generated.defaults.go walks the spec), plus what only a Pod gets (SetDefaults_Pod) and
// DefaultTolerationSeconds for the admission chain. A pod's priority is the Priority admission
// plugin's business (admission/priority.ts), not a default.
import type { KObject } from '../../api/types.ts';
import { child, type FieldDefault, type Fields, fill, items, nil, present, zero } from './defaults-fields.ts';

const POD_SPEC: readonly FieldDefault[] = [
  zero('dnsPolicy', 'ClusterFirst'),
  zero('restartPolicy', 'Always'),
  nil('securityContext', {}),
  nil('terminationGracePeriodSeconds', 30),
  zero('schedulerName', 'default-scheduler'),
];

const CONTAINER: readonly FieldDefault[] = [
  zero('terminationMessagePath', '/dev/termination-log'),
  zero('terminationMessagePolicy', 'File'),
];

const PROBE: readonly FieldDefault[] = [zero('timeoutSeconds', 1), zero('periodSeconds', 10), zero('successThreshold', 1), zero('failureThreshold', 3)];
const HTTP_GET: readonly FieldDefault[] = [zero('path', '/'), zero('scheme', 'HTTP')];
const FIELD_REF: readonly FieldDefault[] = [zero('apiVersion', 'v1')];
const MODE_0644 = 0o644;

/** Defaults of each volume source, by its key in the Volume object. */
const VOLUME_SOURCES: ReadonlyMap<string, readonly FieldDefault[]> = new Map([
  ['hostPath', [nil('type', '')]],
  ['secret', [nil('defaultMode', MODE_0644)]],
  ['configMap', [nil('defaultMode', MODE_0644)]],
  ['downwardAPI', [nil('defaultMode', MODE_0644)]],
  ['projected', [nil('defaultMode', MODE_0644)]],
  ['iscsi', [zero('iscsiInterface', 'default')]],
  ['rbd', [zero('pool', 'rbd'), zero('user', 'admin'), zero('keyring', '/etc/ceph/keyring')]],
  ['azureDisk', [nil('cachingMode', 'ReadWrite'), nil('kind', 'Shared'), nil('fsType', 'ext4'), nil('readOnly', false)]],
  ['scaleIO', [zero('storageMode', 'ThinProvisioned'), zero('fsType', 'xfs')]],
]);

/** Everything a Pod gets on decode. */
export function defaultPod(pod: KObject): void {
  const spec = child(pod, 'spec');
  podOnlyDefaults(spec);
  defaultPodSpec(spec);
}

/** A PodTemplateSpec's spec, as in pod templates and workload templates (no Pod-only defaults). */
export function defaultPodTemplateSpec(template: Fields): void {
  defaultPodSpec(child(template, 'spec'));
}

/** SetDefaults_Pod: kept out of templates so that adding one never rolls out a new revision. */
function podOnlyDefaults(spec: Fields): void {
  const containers = [...items(spec, 'containers'), ...items(spec, 'initContainers')];
  for (const c of containers) {
    // Requests default to limits.
    const resources = present(c, 'resources');
    const limits = resources && present(resources, 'limits');
    if (!resources || !limits || Object.keys(limits).length === 0) continue;
    const requests = child(resources, 'requests');
    for (const [name, quantity] of Object.entries(limits)) if (!Object.hasOwn(requests, name)) requests[name] = quantity;
  }
  fill(spec, [nil('enableServiceLinks', true)]);
  if (spec.hostNetwork !== true) return;
  for (const port of containers.flatMap((c) => items(c, 'ports')))
    if (typeof port.containerPort === 'number') fill(port, [zero('hostPort', port.containerPort)]);
}

function defaultPodSpec(spec: Fields): void {
  fill(spec, POD_SPEC);
  for (const v of items(spec, 'volumes')) defaultVolume(v);
  for (const key of ['initContainers', 'containers', 'ephemeralContainers']) for (const c of items(spec, key)) defaultContainer(c);
}

function defaultContainer(c: Fields): void {
  fill(c, [zero('imagePullPolicy', imageTag(c.image) === 'latest' ? 'Always' : 'IfNotPresent'), ...CONTAINER]);
  for (const port of items(c, 'ports')) fill(port, [zero('protocol', 'TCP')]);
  for (const env of items(c, 'env')) {
    const fieldRef = present(present(env, 'valueFrom') ?? {}, 'fieldRef');
    if (fieldRef) fill(fieldRef, FIELD_REF);
  }
  child(c, 'resources'); // a struct, so always encoded, as {} when empty
  for (const key of ['livenessProbe', 'readinessProbe', 'startupProbe']) {
    const probe = present(c, key);
    if (!probe) continue;
    fill(probe, PROBE);
    defaultHandler(probe);
    const grpc = present(probe, 'grpc');
    if (grpc) fill(grpc, [nil('service', '')]);
  }
  const lifecycle = present(c, 'lifecycle');
  for (const hook of ['postStart', 'preStop']) {
    const handler = lifecycle && present(lifecycle, hook);
    if (handler) defaultHandler(handler);
  }
}

function defaultHandler(handler: Fields): void {
  const httpGet = present(handler, 'httpGet');
  if (httpGet) fill(httpGet, HTTP_GET);
}

function defaultVolume(v: Fields): void {
  const sources = Object.keys(v).filter((k) => k !== 'name' && v[k] !== undefined && v[k] !== null);
  if (sources.length === 0) v.emptyDir = {};
  for (const source of sources) {
    const s = present(v, source);
    const defaults = VOLUME_SOURCES.get(source);
    if (s && defaults) fill(s, defaults);
  }
  for (const item of items(present(v, 'downwardAPI') ?? {}, 'items')) defaultFieldRef(item);
  for (const projection of items(present(v, 'projected') ?? {}, 'sources')) {
    for (const item of items(present(projection, 'downwardAPI') ?? {}, 'items')) defaultFieldRef(item);
    const token = present(projection, 'serviceAccountToken');
    if (token) fill(token, [nil('expirationSeconds', 3600)]);
  }
  const claimSpec = present(present(present(v, 'ephemeral') ?? {}, 'volumeClaimTemplate') ?? {}, 'spec');
  if (claimSpec) fill(claimSpec, [nil('volumeMode', 'Filesystem')]);
}

function defaultFieldRef(item: Fields): void {
  const fieldRef = present(item, 'fieldRef');
  if (fieldRef) fill(fieldRef, FIELD_REF);
}

/**
 * Adds the NoExecute tolerations of node.kubernetes.io/not-ready and /unreachable unless the pod
 * already tolerates them (a toleration with an empty key or effect matches too). The
 * DefaultTolerationSeconds admission plugin's mutation, for pod creates and updates.
 */
export function defaultTolerations(pod: KObject, notReadySeconds = 300, unreachableSeconds = 300): void {
  const spec = child(pod, 'spec');
  if (!Array.isArray(spec.tolerations)) spec.tolerations = [];
  const tolerations = spec.tolerations as unknown[];
  const tolerates = (key: string) => items(spec, 'tolerations')
    .some((t) => (t.key === key || !t.key) && (t.effect === 'NoExecute' || !t.effect));
  const add = (key: string, seconds: number) => ({ key, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: seconds });
  const notReady = tolerates('node.kubernetes.io/not-ready');
  const unreachable = tolerates('node.kubernetes.io/unreachable');
  if (!notReady) tolerations.push(add('node.kubernetes.io/not-ready', notReadySeconds));
  if (!unreachable) tolerations.push(add('node.kubernetes.io/unreachable', unreachableSeconds));
}

// The image reference grammar of github.com/distribution/reference (regexp.go).
const DOMAIN_COMPONENT = '(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])';
const DOMAIN = `(?:${DOMAIN_COMPONENT}(?:\\.${DOMAIN_COMPONENT})*|\\[[a-fA-F0-9:]+\\])(?::[0-9]+)?`;
const PATH_COMPONENT = '[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*';
const TAG = '[\\w][\\w.-]{0,127}';
const DIGEST = '[A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*:[0-9A-Fa-f]{32,}';
const REFERENCE = new RegExp(`^((?:${DOMAIN}/)?${PATH_COMPONENT}(?:/${PATH_COMPONENT})*)(?::(${TAG}))?(?:@(${DIGEST}))?$`);
const NAME_MAX_LENGTH = 255;
/** Longer strings are not parsed at all: a name, a 128-character tag and a sha512 digest fit well within. */
const REFERENCE_MAX_LENGTH = 1024;

/**
 * The tag parsers.ParseImageName finds: the tag when there is one, "latest" for a bare name, and ""
 * for a digest without a tag or a reference that does not parse (which then pulls IfNotPresent).
 */
export function imageTag(image: unknown): string {
  if (typeof image !== 'string' || image.length > REFERENCE_MAX_LENGTH) return '';
  const m = REFERENCE.exec(image);
  if (!m || m[1].length > NAME_MAX_LENGTH || /^[a-f0-9]{64}$/.test(image)) return '';
  const [, , tag, digest] = m;
  if (tag) return tag;
  return digest ? '' : 'latest';
}
