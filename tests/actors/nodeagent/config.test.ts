// The node agent's configuration file against seed 001 ("Node agent: configuration file", its
// Authentication and Limits rows): every field's default, a value it takes and the values its
// rule refuses (rows transcribed by hand), then the rules across fields, the document's form, the
// merge with the command line, and the CredentialProviderConfig a flag points to.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { OptionError } from '../../../actors/api/options/table.ts';
import { FIELDS } from '../../../actors/nodeagent/config-fields.ts';
import { loadNodeAgentConfig, nodeAgentOptionsFromConfig, validateCredentialProviderConfig, type LoadedNodeAgentConfig } from '../../../actors/nodeagent/config.ts';
import { nodeAgentOptions } from '../../../actors/nodeagent/options.ts';

const HEAD = { apiVersion: 'nodeagent.config.orch.io/v1beta1', kind: 'NodeAgentConfiguration' };
const files = new Map<string, string>();
const readFile = (path: string) => {
  const text = files.get(path);
  if (text === undefined) throw new Error(`ENOENT: no such file ${path}`);
  return text;
};
/** Dotted paths to nested mappings: `{ 'authentication.webhook.enabled': false }`. */
function nest(fields: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [path, v] of Object.entries(fields)) {
    const keys = path.split('.');
    let o = out;
    for (const k of keys.slice(0, -1)) o = (o[k] ??= {}) as Record<string, unknown>;
    o[keys[keys.length - 1]] = v;
  }
  return out;
}
function load(fields: Record<string, unknown>, argv: string[] = [], name = 'node.json'): LoadedNodeAgentConfig {
  files.set(name, JSON.stringify({ ...HEAD, ...nest(fields) }));
  return loadNodeAgentConfig([`--config=${name}`, ...argv], readFile);
}
const get = (o: unknown, path: string) => path.split('.').reduce<unknown>((x, k) => (x as Record<string, unknown> | undefined)?.[k], o);
function refused(run: () => unknown, ...says: string[]): void {
  try {
    run();
  } catch (e) {
    assert.instance(e, OptionError, (e as Error).message);
    for (const s of says) assert.ok((e as Error).message.includes(s), `expected ${JSON.stringify(s)} in ${JSON.stringify((e as Error).message)}`);
    return;
  }
  assert.unreachable(`accepted; expected an error saying ${says.join(', ')}`);
}

interface FieldCase { field: string; default: unknown; valid: unknown; expect?: unknown; invalid?: [unknown, string][]; with?: Record<string, unknown> }
const r = (field: string, dflt: unknown, valid: unknown, invalid?: [unknown, string][], more: Partial<FieldCase> = {}): FieldCase => ({ field, default: dflt, valid, ...(invalid ? { invalid } : {}), ...more });
const neg: [unknown, string][] = [[-1, 'must not be negative']];
const negDuration: [unknown, string][] = [['-1s', 'must not be negative'], ['soon', 'must be a duration such as 10s']];
const gate = (name: string) => ({ with: { featureGates: { [name]: true } } });

// Defaults as the seed writes them (durations as text, read by the field's kind); `expect` where the typed value differs from the text.
const ROWS: FieldCase[] = [
  r('enableServer', true, false, [['maybe', 'must be true or false']]),
  r('staticPodPath', '', '/etc/orch/manifests'),
  r('syncFrequency', '1m', '30s', [...negDuration, [30, 'must be a duration']], { expect: 30_000 }),
  r('fileCheckFrequency', '20s', '10s', negDuration, { expect: 10_000 }),
  r('httpCheckFrequency', '20s', '10s', negDuration, { expect: 10_000 }),
  r('staticPodURL', '', 'http://example.com/pods'),
  r('staticPodURLHeader', undefined, { a: ['x', 'y'] }, [[{ a: 'x' }, 'a must be a list of values']]),
  r('address', '0.0.0.0', '::', [['localhost', 'must be an IPv4 or IPv6 address']]),
  r('port', 10250, 10251, [[0, 'must be from 1 to 65535'], [65536, 'must be from 1 to 65535'], ['http', 'must be an integer']]),
  r('readOnlyPort', 0, 10255, [[-1, 'must be from 0 to 65535 (0 disables it)']]),
  r('tlsCertFile', '', '/etc/pki/node.crt'),
  r('tlsPrivateKeyFile', '', '/etc/pki/node.key'),
  r('tlsCipherSuites', undefined, ['TLS_AES_128_GCM_SHA256'], [[['rc4'], '"rc4" is not a cipher suite name']]),
  r('tlsMinVersion', '', 'VersionTLS13', [['1.3', 'must be one of VersionTLS10, VersionTLS11, VersionTLS12, VersionTLS13, or empty']]),
  r('rotateCertificates', false, true),
  r('serverTLSBootstrap', false, true),
  r('authentication.anonymous.enabled', false, true),
  r('authentication.webhook.enabled', true, false),
  r('authentication.webhook.cacheTTL', '2m', '30s', negDuration, { expect: 30_000 }),
  r('authentication.x509.clientCAFile', '', '/etc/pki/ca.crt'),
  r('authorization.mode', 'Webhook', 'AlwaysAllow', [['RBAC', 'must be one of "AlwaysAllow", "Webhook"']]),
  r('authorization.webhook.cacheAuthorizedTTL', '5m', '1m', negDuration, { expect: 60_000 }),
  r('authorization.webhook.cacheUnauthorizedTTL', '30s', '10s', negDuration, { expect: 10_000 }),
  r('registryPullQPS', 5, 0, neg), r('registryBurst', 10, 20, neg), r('eventRecordQPS', 5, 50, neg), r('eventBurst', 10, 100, neg),
  r('enableDebuggingHandlers', true, false),
  r('enableContentionProfiling', false, true),
  r('healthzPort', 10248, 0, [[65536, 'must be from 0 to 65535']]),
  r('healthzBindAddress', '127.0.0.1', '0.0.0.0', [['', 'must be an IPv4 or IPv6 address']]),
  r('oomScoreAdj', -999, -1000, [[1001, 'must be from -1000 to 1000'], [-1001, 'must be from -1000 to 1000']]),
  r('clusterDomain', '', 'cluster.local'),
  r('clusterDNS', undefined, ['10.96.0.10', 'fd00::10'], [[['dns'], '"dns" is not an IP address']]),
  r('streamingConnectionIdleTimeout', '4h', '30m', negDuration, { expect: 1_800_000 }),
  r('nodeStatusUpdateFrequency', '10s', '20s', [['0s', 'must be greater than 0']], { expect: 20_000 }),
  r('nodeStatusReportFrequency', '5m', '1m', [['0s', 'must be greater than 0']], { expect: 60_000 }),
  r('nodeLeaseDurationSeconds', 40, 60, [[0, 'must be greater than 0']]),
  r('imageMinimumGCAge', '2m', '5m', negDuration, { expect: 300_000 }),
  r('imageGCHighThresholdPercent', 85, 90, [[101, 'must be from 0 to 100']]),
  r('imageGCLowThresholdPercent', 80, 70, [[-1, 'must be from 0 to 100']]),
  r('volumeStatsAggPeriod', '1m', '-1s', undefined, { expect: -1_000 }),
  r('nodeagentCgroups', '', '/nodeagent.slice', [['nodeagent.slice', 'must be an absolute cgroup name']]),
  r('systemCgroups', '', '/system.slice', [['system', 'must be an absolute cgroup name']], { with: { cgroupRoot: '/' } }),
  r('cgroupRoot', '', '/'),
  r('cgroupsPerQOS', true, false, undefined, { with: { enforceNodeAllocatable: [] } }),
  r('cgroupDriver', 'cgroupfs', 'systemd', [['docker', 'must be one of "cgroupfs", "systemd"']]),
  // The seed writes the default "None"; the real agent's value is "none" (its policies are none and static).
  r('cpuManagerPolicy', 'none', 'static', [['dynamic', 'must be one of "none", "static"']]),
  r('cpuManagerPolicyOptions', undefined, { 'full-pcpus-only': 'true' }, [[['x'], 'must be a mapping']]),
  r('cpuManagerReconcilePeriod', '10s', '5s', negDuration, { expect: 5_000 }),
  // The seed's "none" is the real agent's policy "None" (policies None and Static).
  r('memoryManagerPolicy', 'None', 'Static', [['static', 'must be one of "None", "Static"']]),
  r('topologyManagerPolicy', 'none', 'best-effort', [['strict', 'must be one of "none", "best-effort", "restricted", "single-numa-node"']]),
  r('topologyManagerScope', 'container', 'pod', [['node', 'must be one of "container", "pod"']]),
  r('qosReserved', undefined, { memory: '50%' }, [[{ cpu: '50%' }, 'only memory can be reserved'], [{ memory: '50' }, 'must be a percentage']], gate('QOSReserved')),
  r('runtimeRequestTimeout', '2m', '5m', negDuration, { expect: 300_000 }),
  r('hairpinMode', 'promiscuous-bridge', 'none', [['bridge', 'must be one of "promiscuous-bridge", "hairpin-veth", "none"']]),
  r('maxPods', 110, 250, neg),
  r('podCIDR', '', '10.244.0.0/16', [['10.244.0.0', 'is not a CIDR']]),
  r('podPidsLimit', -1, 4096, [['many', 'must be an integer']]),
  r('resolvConf', '/etc/resolv.conf', ''),
  r('runOnce', false, true),
  r('cpuCFSQuota', true, false),
  r('cpuCFSQuotaPeriod', '100ms', '50ms', [['soon', 'must be a duration']], { expect: 50, ...gate('CustomCPUCFSQuotaPeriod') }),
  r('nodeStatusMaxImages', 50, -1, [[-2, 'must be -1 (no cap) or more']]),
  r('maxOpenFiles', 1_000_000, 65536, neg),
  r('contentType', 'application/vnd.orchestrator.protobuf', 'application/json', [['text/plain', 'must be one of application/json']]),
  r('orchAPIQPS', 5, 50, neg), r('orchAPIBurst', 10, 100, neg),
  r('serializeImagePulls', true, false),
  r('evictionHard', { 'imagefs.available': '15%', 'memory.available': '100Mi', 'nodefs.available': '10%', 'nodefs.inodesFree': '5%' }, { 'memory.available': '1Gi' }, [
    [{ 'disk.available': '1Gi' }, 'unknown eviction signal "disk.available"'], [{ 'memory.available': '101%' }, 'a percentage must be from 0% to 100%'],
    [{ 'memory.available': '-1Gi' }, 'must not be negative'], [['memory.available'], 'must be a mapping']]),
  r('evictionSoft', undefined, { 'memory.available': '1.5Gi' }, [[{ 'memory.available': 'lots' }, 'must be a quantity such as 100Mi or a percentage']],
    { with: { evictionSoftGracePeriod: { 'memory.available': '1m' } } }),
  r('evictionSoftGracePeriod', undefined, { 'memory.available': '1m30s' }, [[{ 'memory.available': 'soon' }, 'must be a duration'], [{ 'pid.free': '1m' }, 'unknown eviction signal']], { expect: { 'memory.available': 90_000 } }),
  r('evictionMinimumReclaim', undefined, { 'imagefs.available': '2Gi' }, [[{ 'imagefs.free': '2Gi' }, 'unknown eviction signal']]),
  r('evictionPressureTransitionPeriod', '5m', '30s', negDuration, { expect: 30_000 }),
  r('evictionMaxPodGracePeriod', 0, 30),
  r('podsPerCore', 0, 10, neg),
  r('enableControllerAttachDetach', true, false),
  r('protectKernelDefaults', false, true),
  r('makeIPTablesUtilChains', true, false),
  r('iptablesMasqueradeBit', 14, 13, [[32, 'must be from 0 to 31']]),
  r('iptablesDropBit', 15, 16, [[-1, 'must be from 0 to 31']]),
  r('featureGates', undefined, { NodeSwap: true }, [[{ NoSuchGate: true }, 'unrecognized feature gate: NoSuchGate'], [{ EphemeralContainers: false }, 'locked to true'], [{ NodeSwap: 'perhaps' }, 'must be true or false']]),
  r('failSwapOn', true, false),
  r('memorySwap.swapBehavior', undefined, 'LimitedSwap', [['Swap', 'must be one of "", "LimitedSwap", "UnlimitedSwap"']], gate('NodeSwap')),
  r('containerLogMaxSize', '10Mi', '50Mi', [['big', 'must be a quantity']]),
  r('containerLogMaxFiles', 5, 2, [[1, 'must be at least 2']]),
  r('configMapAndSecretChangeDetectionStrategy', 'Watch', 'Cache', [['Poll', 'must be one of "Get", "Cache", "Watch"']]),
  r('systemReserved', undefined, { cpu: '200m', memory: '500Mi' }, [[{ gpu: '1' }, 'resource "gpu" cannot be reserved']]),
  r('orchReserved', undefined, { cpu: '100m', 'ephemeral-storage': '1Gi' }, [[{ memory: 'lots' }, 'must be a non-negative quantity']]),
  r('reservedSystemCPUs', '', '0-1', [['1-0', 'must be a CPU list']]),
  r('showHiddenMetricsForVersion', '', '1.31', [['1.30', 'must be 1.31']]),
  r('systemReservedCgroup', '', '/system-reserved', [['system-reserved', 'must be an absolute cgroup name']]),
  r('orchReservedCgroup', '', '/orch-reserved'),
  r('enforceNodeAllocatable', ['pods'], ['pods', 'orch-reserved'], [[['kube-reserved'], 'is not one of none, pods, system-reserved, orch-reserved']], { with: { orchReservedCgroup: '/orch-reserved' } }),
  r('allowedUnsafeSysctls', undefined, ['net.core.*', 'kernel.msgmax'], [[['Net.Core'], 'is not a sysctl name']]),
  r('volumePluginDir', '/usr/libexec/orch/nodeagent-plugins/volume/exec/', '/opt/plugins'),
  r('providerID', '', 'aws:///i-1'),
  r('kernelMemcgNotification', false, true),
  r('logging.format', 'text', 'json', [['yaml', 'must be one of "text", "json"']]),
  r('logging.flushFrequency', 5_000_000_000, 1_000_000_000, [[0, 'must be greater than 0'], [1.5, 'must be whole nanoseconds']], { expect: 1_000 }),
  r('logging.verbosity', 0, 4, neg),
  r('logging.vmodule', undefined, [{ filePattern: 'gc*', verbosity: 3 }], [['gc', 'must be pattern=N entries']], { expect: [{ pattern: 'gc*', level: 3 }] }),
  r('logging.options.json.splitStream', false, true, undefined, gate('LoggingAlphaOptions')),
  r('logging.options.json.infoBufferSize', '0', '64Ki', [['lots', 'must be a quantity']], gate('LoggingAlphaOptions')),
  r('enableSystemLogHandler', true, false),
  r('shutdownGracePeriod', '0s', '30s', negDuration, { expect: 30_000 }),
  r('shutdownGracePeriodCriticalPods', '0s', '10s', negDuration, { expect: 10_000, with: { shutdownGracePeriod: '30s' } }),
  r('shutdownGracePeriodByPodPriority', undefined, [{ priority: 100000, shutdownGracePeriodSeconds: 10 }], [
    [[{ priority: 1 }], 'shutdownGracePeriodSeconds is required'], [[{ priority: 1, shutdownGracePeriodSeconds: 5, extra: 1 }], 'unknown field "extra"']]),
  r('reservedMemory', undefined, [{ numaNode: 0, limits: { memory: '1Gi' } }], [
    [[{ numaNode: -1, limits: { memory: '1Gi' } }], 'numaNode must be an integer of at least 0'], [[{ numaNode: 0, limits: { cpu: '1' } }], 'must be memory or hugepages-<size>']]),
  r('enableProfilingHandler', true, false),
  r('enableDebugFlagsHandler', true, false),
  r('seccompDefault', undefined, true),
  r('memoryThrottlingFactor', 0.8, 0.9, [[0, 'must be above 0 and at most 1'], [1.5, 'must be above 0 and at most 1']]),
  r('registerWithTaints', undefined, [{ key: 'dedicated', value: 'infra', effect: 'NoSchedule' }], [
    [[{ key: 'a', effect: 'Never' }], 'taint effect "Never" must be one of'], [[{ key: 'a', effect: 'NoSchedule', timeAdded: '2024-01-01T00:00:00Z' }], 'timeAdded must not be set'],
    [[{ key: 'bad key', effect: 'NoSchedule' }], 'taint key "bad key"']]),
  r('registerNode', true, false),
  r('tracing.endpoint', undefined, 'collector:4317', undefined, gate('KubeletTracing')),
  r('tracing.samplingRatePerMillion', undefined, 100, [[2_000_000, 'must be from 0 to 1000000']], gate('KubeletTracing')),
  r('localStorageCapacityIsolation', true, false),
];

test('the rows name exactly the fields of the file', () => {
  assert.equal(ROWS.map((x) => x.field).sort(), FIELDS.map((f) => f.field as string).sort());
});

test('every field: its default, a value it takes, and each value its rule refuses, naming file, field, value and rule', () => {
  const defaults = load({}).config;
  for (const row of ROWS) {
    const spec = FIELDS.find((f) => f.field === row.field)!;
    const want = row.default === undefined ? undefined : (spec.kind.read as (v: unknown) => unknown)(row.default);
    assert.equal(get(defaults, row.field), want, `${row.field}: default`);
    const c = load({ ...row.with, [row.field]: row.valid }).config;
    assert.equal(get(c, row.field), row.expect ?? row.valid, `${row.field}: ${JSON.stringify(row.valid)}`);
    for (const [bad, says] of row.invalid ?? []) refused(() => load({ ...row.with, [row.field]: bad }), `node.json: invalid value ${JSON.stringify(bad)} for ${row.field}: `, says);
  }
});

test('without --config the command line\'s defaults apply; with one, the file\'s', () => {
  const bare = loadNodeAgentConfig([], readFile).config;
  assert.equal([bare.readOnlyPort, bare.authorization.mode, bare.authentication.anonymous.enabled, bare.authentication.webhook.enabled], [10255, 'AlwaysAllow', true, false]);
  const file = load({}).config;
  assert.equal([file.readOnlyPort, file.authorization.mode, file.authentication.anonymous.enabled, file.authentication.webhook.enabled], [0, 'Webhook', false, true]);
  const given = load({}, ['--read-only-port=10255', '--authorization-mode=AlwaysAllow']).config;
  assert.equal([given.readOnlyPort, given.authorization.mode], [10255, 'AlwaysAllow']);
  assert.is(loadNodeAgentConfig([], readFile).flags['container-runtime'], 'remote');
});

test('flags given explicitly override the file; the rest of the file stands', () => {
  const l = load({ maxPods: 50, podsPerCore: 5, evictionHard: { 'memory.available': '1Gi' } }, ['--max-pods=60', '--eviction-hard=memory.available<2Gi']);
  assert.equal([l.config.maxPods, l.config.podsPerCore, l.config.evictionHard], [60, 5, { 'memory.available': '2Gi' }]);
  assert.is(l.sources.get('maxPods'), 'from --max-pods');
  assert.is(l.sources.get('podsPerCore'), 'from node.json');
  assert.ok(l.warnings.some((w) => w.startsWith('Flag --max-pods has been deprecated, This parameter should be set via the config file')));
  // Feature gates from the flag are added to the file's.
  assert.equal(load({ featureGates: { NodeSwap: true, QOSReserved: true } }, ['--feature-gates=QOSReserved=false,MemoryQoS=true']).config.featureGates, { NodeSwap: true, QOSReserved: false, MemoryQoS: true });
});

test('the report frequency defaults to the update frequency when that is set explicitly', () => {
  assert.is(load({}).config.nodeStatusReportFrequency, 300_000);
  assert.is(load({ nodeStatusUpdateFrequency: '20s' }).config.nodeStatusReportFrequency, 20_000);
  assert.is(loadNodeAgentConfig(['--node-status-update-frequency=30s'], readFile).config.nodeStatusReportFrequency, 30_000);
  assert.is(load({ nodeStatusUpdateFrequency: '20s', nodeStatusReportFrequency: '1m' }).config.nodeStatusReportFrequency, 60_000);
});

test('rules across fields, gates among them, name each field with its value and where it came from', () => {
  const cases: [Record<string, unknown>, string[], string[]][] = [
    [{ imageGCLowThresholdPercent: 90 }, [], ['imageGCHighThresholdPercent 85 (default) must be above imageGCLowThresholdPercent 90 (from node.json)']],
    [{}, ['--image-gc-high-threshold=80'], ['imageGCHighThresholdPercent 80 (from --image-gc-high-threshold) must be above imageGCLowThresholdPercent 80 (default)']],
    [{ iptablesDropBit: 14 }, [], ['iptablesMasqueradeBit 14 (default) and iptablesDropBit 14 (from node.json) must be different bits']],
    [{ shutdownGracePeriod: '10s', shutdownGracePeriodCriticalPods: '20s' }, [], ['shutdownGracePeriodCriticalPods 20s (from node.json) must not be above shutdownGracePeriod 10s']],
    [{ shutdownGracePeriod: '500ms' }, [], ['shutdownGracePeriod 500ms (from node.json) must be 0 or at least 1s']],
    [{ shutdownGracePeriod: '30s', shutdownGracePeriodByPodPriority: [{ priority: 1, shutdownGracePeriodSeconds: 5 }] }, [], ['cannot be set with shutdownGracePeriod 30s']],
    [{ podsPerCore: 20, maxPods: 10 }, [], ['podsPerCore 20 (from node.json) must not be above maxPods 10 (from node.json)']],
    [{ systemCgroups: '/system.slice' }, [], ['systemCgroups /system.slice (from node.json) needs cgroupRoot to be set']],
    [{ reservedSystemCPUs: '0-1', systemReservedCgroup: '/sys' }, [], ['reservedSystemCPUs 0-1 (from node.json) cannot be used with systemReservedCgroup']],
    [{ enforceNodeAllocatable: ['none', 'pods'] }, [], ['may hold nothing else when it holds none']],
    [{ enforceNodeAllocatable: ['pods', 'pods'] }, [], ['names an enforcement twice']],
    [{ enforceNodeAllocatable: ['system-reserved'] }, [], ['holds system-reserved, so systemReservedCgroup must be set']],
    [{ cgroupsPerQOS: false }, [], ['enforceNodeAllocatable [pods] (default) needs cgroupsPerQOS to be true']],
    [{ evictionSoft: { 'memory.available': '1Gi' } }, [], ['needs a grace period in evictionSoftGracePeriod for memory.available']],
    [{ reservedMemory: [{ numaNode: 0, limits: { memory: '1Gi' } }, { numaNode: 0, limits: { memory: '2Gi' } }] }, [], ['reserves memory on NUMA node 0 twice']],
    [{ 'logging.format': 'json', 'logging.vmodule': [{ filePattern: 'gc', verbosity: 2 }] }, [], ['logging.vmodule gc=2 (from node.json) works with the text format only']],
    [{ qosReserved: { memory: '50%' } }, [], ['qosReserved [memory=50%] (from node.json) needs the feature gate QOSReserved, which is off', '--feature-gates=QOSReserved=true']],
    [{ cpuManagerPolicy: 'static', featureGates: { CPUManager: false } }, [], ['needs the feature gate CPUManager']],
    [{ cpuManagerPolicyOptions: { 'full-pcpus-only': 'true' }, featureGates: { CPUManagerPolicyOptions: false } }, [], ['cpuManagerPolicyOptions', 'needs the feature gate CPUManagerPolicyOptions']],
    [{ cpuManagerPolicyOptions: { 'full-pcpus-only': 'true' } }, ['--feature-gates=AllBeta=false'], ['needs the feature gate CPUManager,']],
    [{ memoryManagerPolicy: 'Static', featureGates: { MemoryManager: false } }, [], ['needs the feature gate MemoryManager']],
    [{ topologyManagerScope: 'pod', featureGates: { TopologyManager: false } }, [], ['topologyManagerScope pod (from node.json) needs the feature gate TopologyManager']],
    [{ serverTLSBootstrap: true, featureGates: { RotateKubeletServerCertificate: false } }, [], ['needs the feature gate RotateKubeletServerCertificate']],
    [{ shutdownGracePeriodByPodPriority: [{ priority: 1, shutdownGracePeriodSeconds: 5 }], featureGates: { GracefulNodeShutdownBasedOnPodPriority: false } }, [], ['needs the feature gate GracefulNodeShutdownBasedOnPodPriority']],
    [{ shutdownGracePeriod: '30s', featureGates: { GracefulNodeShutdown: false } }, [], ['needs the feature gate GracefulNodeShutdown']],
    [{ 'memorySwap.swapBehavior': 'LimitedSwap' }, [], ['memorySwap.swapBehavior LimitedSwap (from node.json) needs the feature gate NodeSwap']],
    [{ cpuCFSQuotaPeriod: '50ms' }, [], ['needs the feature gate CustomCPUCFSQuotaPeriod']],
    [{ cpuCFSQuotaPeriod: '2s', featureGates: { CustomCPUCFSQuotaPeriod: true } }, [], ['cpuCFSQuotaPeriod 2s (from node.json) must be from 1ms to 1s']],
    [{ seccompDefault: true, featureGates: { SeccompDefault: false } }, [], ['needs the feature gate SeccompDefault']],
    [{ 'tracing.samplingRatePerMillion': 10 }, [], ['needs the feature gate KubeletTracing']],
    [{ 'logging.options.json.splitStream': true }, [], ['needs the feature gate LoggingAlphaOptions']],
    [{ 'logging.format': 'json', featureGates: { LoggingBetaOptions: false } }, [], ['needs the feature gate LoggingBetaOptions']],
  ];
  for (const [fields, argv, says] of cases) refused(() => load(fields, argv), 'invalid node agent configuration: ', ...says);
  assert.is(load({ 'tracing.endpoint': 'c:4317' }, ['--feature-gates=AllAlpha=true']).config.tracing?.endpoint, 'c:4317');
});

test('YAML and JSON read alike; not a document, duplicate keys, a wrong kind or version are refused', () => {
  files.set('node.yaml', `apiVersion: nodeagent.config.orch.io/v1beta1\nkind: NodeAgentConfiguration\nmaxPods: 30\nauthentication:\n  webhook:\n    cacheTTL: 1m\nevictionHard:\n  memory.available: 200Mi\nregisterWithTaints:\n  - key: dedicated\n    effect: NoSchedule\n`);
  const yaml = loadNodeAgentConfig(['--config', 'node.yaml'], readFile).config;
  const json = load({ maxPods: 30, 'authentication.webhook.cacheTTL': '1m', evictionHard: { 'memory.available': '200Mi' }, registerWithTaints: [{ key: 'dedicated', effect: 'NoSchedule' }] }).config;
  assert.equal(yaml, json);
  assert.is(json.authentication.webhook.cacheTTL, 60_000);
  const raw = (name: string, text: string) => () => (files.set(name, text), loadNodeAgentConfig([`--config=${name}`], readFile));
  refused(raw('bad.yaml', 'maxPods: [1'), 'bad.yaml: not a YAML or JSON document');
  refused(raw('dup.yaml', 'apiVersion: nodeagent.config.orch.io/v1beta1\nkind: NodeAgentConfiguration\nmaxPods: 1\nmaxPods: 2\n'), 'dup.yaml: not a YAML or JSON document', 'unique');
  refused(raw('list.yaml', '- 1\n'), 'list.yaml: must be a mapping with apiVersion nodeagent.config.orch.io/v1beta1');
  refused(raw('kind.yaml', 'apiVersion: nodeagent.config.orch.io/v1beta1\nkind: CredentialProviderConfig\n'), 'kind.yaml: kind must be NodeAgentConfiguration, got "CredentialProviderConfig"');
  refused(raw('ver.yaml', 'apiVersion: nodeagent.config.orch.io/v1\nkind: NodeAgentConfiguration\n'), 'ver.yaml: apiVersion must be nodeagent.config.orch.io/v1beta1, got "nodeagent.config.orch.io/v1"');
  refused(() => loadNodeAgentConfig(['--config=missing.yaml'], readFile), 'cannot read the file --config names (missing.yaml): ENOENT');
});

test('unknown fields are refused by their path, with the nearest known field', () => {
  refused(() => load({ foo: 1 }), 'node.json: unknown field "foo"');
  refused(() => load({ maxpods: 1 }), 'unknown field "maxpods"; did you mean "maxPods"?');
  refused(() => load({ 'authentication.webhook.cacheTtl': '1m' }), 'unknown field "authentication.webhook.cacheTtl"; did you mean "authentication.webhook.cacheTTL"?');
  refused(() => load({ 'logging.options.json.bufferSize': '1Mi' }), 'unknown field "logging.options.json.bufferSize"');
  refused(() => load({ authentication: true }), 'node.json: authentication must be a mapping, got true');
  assert.is(load({ authentication: null, maxPods: null }).config.maxPods, 110, 'null fields keep their defaults');
});

test('LoggingConfiguration: flushFrequency in nanoseconds or as a duration, vmodule as entries, options under json', () => {
  const l = load({ logging: { format: 'json', flushFrequency: '2s', verbosity: 3, options: { json: { splitStream: true, infoBufferSize: '1Mi' } } }, featureGates: { LoggingAlphaOptions: true } }).config.logging;
  assert.equal(l, { format: 'json', flushFrequency: 2_000, verbosity: 3, options: { json: { splitStream: true, infoBufferSize: '1Mi' } } });
  assert.equal(load({ logging: { vmodule: [{ filePattern: 'sync*', verbosity: 4 }] } }, ['-v=2']).config.logging.verbosity, 2);
  refused(() => load({ logging: { verbosity: -1 } }), 'node.json: invalid value -1 for logging.verbosity: must not be negative');
  refused(() => load({ logging: { format: 'text', color: true } }), 'unknown field "logging.color"');
});

test('paths in the file are relative to the file; a relative --config is the caller\'s to resolve', () => {
  const c = load({ staticPodPath: 'manifests', tlsCertFile: '/abs/node.crt', 'authentication.x509.clientCAFile': 'pki/ca.crt' }, [], 'conf/node.json').config;
  assert.equal([c.staticPodPath, c.tlsCertFile, c.authentication.x509.clientCAFile], ['conf/manifests', '/abs/node.crt', 'conf/pki/ca.crt']);
  assert.is(loadNodeAgentConfig(['--tls-cert-file=rel.crt'], readFile).config.tlsCertFile, 'rel.crt');
});

test('the simulated agent takes the fields it acts on, and its own options accept them', () => {
  const l = load({ nodeLeaseDurationSeconds: 60, nodeStatusUpdateFrequency: '20s', maxPods: 50, podsPerCore: 10, evictionPressureTransitionPeriod: '0s',
    registerWithTaints: [{ key: 'gpu', effect: 'NoExecute' }], orchAPIQPS: 20, eventRecordQPS: 0, eventBurst: 3 }, ['--node-labels=node.kubernetes.io/pool=a']);
  const o = nodeAgentOptionsFromConfig(l);
  assert.equal(o, { nodeLeaseDurationSeconds: 60, nodeStatusUpdateFrequencyMs: 20_000, nodeStatusReportFrequencyMs: 20_000, maxPods: 50, podsPerCore: 10,
    evictionHard: { 'imagefs.available': '15%', 'memory.available': '100Mi', 'nodefs.available': '10%', 'nodefs.inodesFree': '5%' },
    evictionPressureTransitionPeriodMs: 1, orchApiQps: 20, orchApiBurst: 10, eventRecordQps: 0, eventBurst: 3, registerWithTaints: [{ key: 'gpu', effect: 'NoExecute' }], nodeLabels: { 'node.kubernetes.io/pool': 'a' } });
  assert.is(nodeAgentOptions(o).maxPods, 50);
  assert.equal(nodeAgentOptionsFromConfig(load({ registerNode: false, registerWithTaints: [{ key: 'gpu', effect: 'NoExecute' }] })).registerWithTaints, []);
});

test('warnings for settings that are accepted but do nothing; stray arguments are refused', () => {
  assert.ok(load({ enableContentionProfiling: true, enableDebuggingHandlers: false }).warnings.includes('enableContentionProfiling has no effect while enableDebuggingHandlers is false'));
  assert.ok(load({ registerNode: false, registerWithTaints: [{ key: 'a', effect: 'NoSchedule' }] }).warnings.includes('registerWithTaints has no effect while registerNode is false'));
  assert.ok(load({ podCIDR: '10.244.0.0/24' }, ['--orchconfig=/etc/orch/node.conf']).warnings.some((w) => w.startsWith('podCIDR is used in standalone mode only')));
  refused(() => loadNodeAgentConfig(['serve'], readFile), 'unexpected argument "serve"');
  refused(() => loadNodeAgentConfig(['--max-pod=3'], readFile), 'unknown flag: --max-pod');
});

const PROVIDERS = { apiVersion: HEAD.apiVersion, kind: 'CredentialProviderConfig', providers: [
  { name: 'ecr-credential-provider', matchImages: ['*.dkr.ecr.*.amazonaws.com', 'registry.example:5000/team'], defaultCacheDuration: '12h', apiVersion: 'credentialprovider.kubelet.k8s.io/v1', args: ['get-credentials'], env: [{ name: 'AWS_PROFILE', value: 'nodes' }] },
] };

test('CredentialProviderConfig: a valid document, and each rule with the path it breaks', () => {
  const c = validateCredentialProviderConfig(PROVIDERS, 'providers.yaml');
  const p0 = PROVIDERS.providers[0];
  const { defaultCacheDuration: _, ...rest } = p0;
  assert.equal(c.providers[0], { ...rest, defaultCacheDurationMs: 43_200_000 });
  const bad = (providers: unknown, ...says: string[]) => refused(() => validateCredentialProviderConfig({ ...PROVIDERS, providers }, 'providers.yaml'), 'providers.yaml: invalid CredentialProviderConfig: ', ...says);
  bad([], 'providers: at least one provider is required');
  bad([{ ...p0, name: '' }], 'providers[0].name: required');
  bad([{ ...p0, name: '../bin/sh' }], 'must be a file name in the plugin directory');
  bad([p0, p0], 'providers[1].name "ecr-credential-provider": duplicate provider name');
  bad([{ ...p0, matchImages: [] }], 'providers[0].matchImages: at least one image pattern is required');
  bad([{ ...p0, matchImages: ['registry.example/*/app'] }], 'providers[0].matchImages[0] "registry.example/*/app": globs are allowed in the domain only');
  bad([{ ...p0, matchImages: ['https://registry.example'] }], 'must not hold a scheme');
  bad([{ ...p0, defaultCacheDuration: undefined }], 'providers[0].defaultCacheDuration: required');
  bad([{ ...p0, defaultCacheDuration: '-1m' }], 'providers[0].defaultCacheDuration "-1m": must not be negative');
  bad([{ ...p0, apiVersion: 'v1' }], 'providers[0].apiVersion "v1": must be one of credentialprovider.nodeagent.orch.io/v1alpha1');
  bad([{ ...p0, env: [{ name: 'A' }] }], 'providers[0].env[0].value: required');
  bad([{ ...p0, cache: true }], 'unknown field "providers[0].cache"');
  refused(() => validateCredentialProviderConfig({ ...PROVIDERS, kind: 'NodeAgentConfiguration' }, 'p.yaml'), 'p.yaml: kind must be CredentialProviderConfig');
});

test('--image-credential-provider-config is read, checked, and needs the plugin directory and the gate', () => {
  files.set('providers.json', JSON.stringify(PROVIDERS));
  const argv = ['--image-credential-provider-config=providers.json', '--image-credential-provider-bin-dir=/usr/libexec/orch/credential-providers'];
  assert.is(loadNodeAgentConfig(argv, readFile).credentialProviders?.providers[0].name, 'ecr-credential-provider');
  refused(() => loadNodeAgentConfig(argv.slice(0, 1), readFile), '--image-credential-provider-config and --image-credential-provider-bin-dir go together');
  refused(() => loadNodeAgentConfig([...argv, '--feature-gates=KubeletCredentialProviders=false'], readFile), 'needs the feature gate KubeletCredentialProviders');
  files.set('providers.json', JSON.stringify({ ...PROVIDERS, providers: [] }));
  refused(() => loadNodeAgentConfig(argv, readFile), 'providers.json: invalid CredentialProviderConfig: providers: at least one provider is required');
});

test.run();
