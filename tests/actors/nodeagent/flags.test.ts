// The node agent's command line against seed 001 ("Node agent: command line", and the command-line
// forms of the configuration file's fields under the real agent's flag names): each row transcribed
// by hand, with the command line's own defaults where the seed says they differ from the file's.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { NODE_AGENT_FLAGS } from '../../../actors/nodeagent/flags.ts';
import { checkOptionTable, type OptionCase } from '../../helpers/option-cases.ts';

const row = (name: string, dflt: string | undefined, valid: string, invalid?: [string, string][]): OptionCase => ({ name, default: dflt, valid, ...(invalid ? { invalid } : {}) });
const negative: [string, string][] = [['-1', 'must not be negative']];

/** Options without a file field. */
const OWN: OptionCase[] = [
  row('orchconfig', undefined, '/etc/orch/nodeagent.conf'),
  row('inspect-log', undefined, '/var/log/orchsim/inspect.jsonl'),
  row('inspect-machines', '[]', 'node,pod', [['node,nodes', 'names "nodes", which is not a machine']]),
  row('bootstrap-orchconfig', undefined, '/etc/orch/bootstrap.conf'),
  row('config', undefined, 'nodeagent.yaml'),
  row('hostname-override', undefined, 'Node-1.example.com', [['node_1', 'must be a DNS subdomain']]),
  row('node-ip', undefined, '10.0.0.5,fd00::5', [['10.0.0.5,10.0.0.6', 'one IPv4 and one IPv6'], ['node-1', 'must be an IP address'], ['0.0.0.0,::', 'cannot hold 0.0.0.0 or ::']]),
  row('node-labels', undefined, 'node.kubernetes.io/pool=blue,nodeagent.kubernetes.io/x=y,topology.kubernetes.io/zone=a,team=a',
    [['kubernetes.io/role=x', 'must begin with an allowed prefix'], ['x.k8s.io/a=b', 'unknown labels under kubernetes.io or k8s.io: x.k8s.io/a'], ['bad key=x', 'name part must consist']]),
  row('container-runtime', 'remote', 'docker', [['containerd', 'must be one of "docker", "remote"']]),
  row('container-runtime-endpoint', undefined, 'unix:///run/containerd/containerd.sock'),
  row('image-service-endpoint', 'the --container-runtime-endpoint', 'unix:///run/images.sock'),
  row('image-credential-provider-bin-dir', undefined, '/usr/libexec/orch/credential-providers'),
  row('image-credential-provider-config', undefined, '/etc/orch/credential-providers.yaml'),
  row('pod-infra-container-image', 'registry.k8s.io/pause:3.6', 'registry.example/pause:3.9'),
  row('root-dir', '/var/lib/nodeagent', '/data/nodeagent'),
  row('cert-dir', '/var/lib/nodeagent/pki', '/data/pki'),
  row('lock-file', undefined, '/var/run/nodeagent.lock'),
  row('exit-on-lock-contention', 'false', 'true'),
  row('runtime-cgroups', undefined, '/runtime.slice', [['runtime.slice', 'must be an absolute cgroup name']]),
  row('version', 'false', 'raw'),
  row('help', 'false', 'true'),
  row('simulated-capacity', '[cpu=4,memory=16Gi,ephemeral-storage=100Gi]', 'cpu=32,memory=128Gi', [['gpu=1', 'names "gpu"'], ['cpu=lots', 'cpu=lots is not a quantity']]),
  row('register-schedulable', 'true', 'false'),
  row('keep-terminated-pod-volumes', 'false', 'true'),
  row('maximum-dead-containers', '-1', '100'),
  row('maximum-dead-containers-per-container', '1', '2'),
  row('minimum-container-ttl-duration', '0s', '1m'),
  row('experimental-mounter-path', 'mount', '/usr/bin/mount'),
  row('experimental-allocatable-ignore-eviction', 'false', 'true'),
  row('add-dir-header', 'false', 'true'),
  row('alsologtostderr', 'false', 'true'),
  row('log-backtrace-at', ':0', 'main.go:42', [['main.go', 'must be file:N']]),
  row('log-dir', undefined, '/var/log/nodeagent'),
  row('log-file', undefined, '/var/log/nodeagent.log'),
  row('log-file-max-size', '1800', '100', negative),
  row('logtostderr', 'true', 'false'),
  row('one-output', 'false', 'true'),
  row('skip-headers', 'false', 'true'),
  row('skip-log-headers', 'false', 'true'),
  row('stderrthreshold', '2', 'ERROR', [['LOUD', 'must be a severity']]),
];

/** The command-line forms of file fields, by the real agent's flag names. */
const FIELD_FLAGS: OptionCase[] = [
  row('enable-server', 'true', 'false'),
  row('pod-manifest-path', '', '/etc/orch/manifests'),
  row('sync-frequency', '1m0s', '30s', [['-1s', 'must not be negative']]),
  row('file-check-frequency', '20s', '10s', [['-5s', 'must not be negative']]),
  row('http-check-frequency', '20s', '10s', [['-5s', 'must not be negative']]),
  row('manifest-url', '', 'http://example.com/pods'),
  row('manifest-url-header', undefined, 'a:hello,b:again', [['novalue', 'must be name:value pairs']]),
  row('address', '0.0.0.0', '::'),
  row('port', '10250', '10251', [['0', 'must be from 1 to 65535'], ['65536', 'must be from 1 to 65535']]),
  row('read-only-port', '10255', '0', [['70000', 'must be from 0 to 65535 (0 disables it)']]),
  row('tls-cert-file', '', '/etc/pki/node.crt'),
  row('tls-private-key-file', '', '/etc/pki/node.key'),
  row('tls-cipher-suites', undefined, 'TLS_AES_128_GCM_SHA256,TLS_AES_256_GCM_SHA384', [['rc4', 'is not a cipher suite name']]),
  row('tls-min-version', '', 'VersionTLS12', [['TLS1.2', 'must be one of VersionTLS10']]),
  row('rotate-certificates', 'false', 'true'),
  row('rotate-server-certificates', 'false', 'true'),
  row('anonymous-auth', 'true', 'false'),
  row('authentication-token-webhook', 'false', 'true'),
  row('authentication-token-webhook-cache-ttl', '2m0s', '30s'),
  row('client-ca-file', '', '/etc/pki/ca.crt'),
  row('authorization-mode', 'AlwaysAllow', 'Webhook', [['RBAC', 'must be one of "AlwaysAllow", "Webhook"']]),
  row('authorization-webhook-cache-authorized-ttl', '5m0s', '1m'),
  row('authorization-webhook-cache-unauthorized-ttl', '30s', '10s'),
  row('registry-qps', '5', '0', negative),
  row('registry-burst', '10', '20', negative),
  row('event-qps', '5', '50', negative),
  row('event-burst', '10', '100', negative),
  row('enable-debugging-handlers', 'true', 'false'),
  row('contention-profiling', 'false', 'true'),
  row('healthz-port', '10248', '0', [['65536', 'must be from 0 to 65535']]),
  row('healthz-bind-address', '127.0.0.1', '0.0.0.0'),
  row('oom-score-adj', '-999', '-1000', [['1001', 'must be from -1000 to 1000'], ['-1001', 'must be from -1000 to 1000']]),
  row('cluster-domain', '', 'cluster.local'),
  row('cluster-dns', undefined, '10.96.0.10,fd00::10', [['dns.local', 'is not an IP address']]),
  row('streaming-connection-idle-timeout', '4h0m0s', '30m'),
  row('node-status-update-frequency', '10s', '20s', [['0s', 'must be greater than 0']]),
  row('minimum-image-ttl-duration', '2m0s', '5m'),
  row('image-gc-high-threshold', '85', '90', [['101', 'must be from 0 to 100']]),
  row('image-gc-low-threshold', '80', '70', [['-1', 'must be from 0 to 100']]),
  row('volume-stats-agg-period', '1m0s', '-1s'),
  row('nodeagent-cgroups', '', '/nodeagent.slice', [['nodeagent.slice', 'must be an absolute cgroup name']]),
  row('system-cgroups', '', '/system.slice'),
  row('cgroup-root', '', '/'),
  row('cgroups-per-qos', 'true', 'false'),
  row('cgroup-driver', 'cgroupfs', 'systemd', [['docker', 'must be one of "cgroupfs", "systemd"']]),
  row('cpu-manager-policy', 'none', 'static', [['dynamic', 'must be one of "none", "static"']]),
  row('cpu-manager-policy-options', undefined, 'full-pcpus-only=true'),
  row('cpu-manager-reconcile-period', '10s', '5s'),
  row('memory-manager-policy', 'None', 'Static', [['static', 'must be one of "None", "Static"']]),
  row('topology-manager-policy', 'none', 'single-numa-node', [['strict', 'must be one of "none", "best-effort", "restricted", "single-numa-node"']]),
  row('topology-manager-scope', 'container', 'pod', [['node', 'must be one of "container", "pod"']]),
  row('qos-reserved', undefined, 'memory=50%', [['cpu=50%', 'only memory can be reserved'], ['memory=150%', 'must be a percentage from 0% to 100%']]),
  row('runtime-request-timeout', '2m0s', '5m'),
  row('hairpin-mode', 'promiscuous-bridge', 'hairpin-veth', [['bridge', 'must be one of "promiscuous-bridge", "hairpin-veth", "none"']]),
  row('max-pods', '110', '250', negative),
  row('pod-cidr', '', '10.244.1.0/24', [['10.244.1.0', 'is not a CIDR']]),
  row('pod-max-pids', '-1', '4096'),
  row('resolv-conf', '/etc/resolv.conf', ''),
  row('runonce', 'false', 'true'),
  row('cpu-cfs-quota', 'true', 'false'),
  row('cpu-cfs-quota-period', '100ms', '50ms'),
  row('node-status-max-images', '50', '-1', [['-2', 'must be -1 (no cap) or more']]),
  row('max-open-files', '1000000', '65536', negative),
  row('orch-api-content-type', 'application/vnd.orchestrator.protobuf', 'application/json', [['text/plain', 'must be one of application/json']]),
  row('orch-api-qps', '5', '50', negative),
  row('orch-api-burst', '10', '100', negative),
  row('serialize-image-pulls', 'true', 'false'),
  row('eviction-hard', 'imagefs.available<15%,memory.available<100Mi,nodefs.available<10%,nodefs.inodesFree<5%', 'memory.available<500Mi,nodefs.available<5%', [
    ['memory.available=100Mi', 'must be key<value pairs'], ['disk.available<10%', 'unknown eviction signal "disk.available"'],
    ['memory.available<120%', 'a percentage must be from 0% to 100%'], ['memory.available<lots', 'must be a quantity such as 100Mi or a percentage'],
  ]),
  row('eviction-soft', undefined, 'memory.available<1Gi', [['memory.available<-1Gi', 'must not be negative']]),
  row('eviction-soft-grace-period', undefined, 'memory.available=1m30s', [['memory.available=soon', 'must be a duration'], ['memory.available=-1s', 'must not be negative']]),
  row('eviction-pressure-transition-period', '5m0s', '30s', [['-1s', 'must not be negative']]),
  row('eviction-max-pod-grace-period', '0', '30'),
  row('eviction-minimum-reclaim', undefined, 'imagefs.available=2Gi', [['imagefs.free=2Gi', 'unknown eviction signal']]),
  row('pods-per-core', '0', '10', negative),
  row('enable-controller-attach-detach', 'true', 'false'),
  row('protect-kernel-defaults', 'false', 'true'),
  row('make-iptables-util-chains', 'true', 'false'),
  row('iptables-masquerade-bit', '14', '13', [['32', 'must be from 0 to 31']]),
  row('iptables-drop-bit', '15', '16', [['-1', 'must be from 0 to 31']]),
  row('feature-gates', undefined, 'QOSReserved=true,NodeSwap=true', [['NoSuchGate=true', 'unrecognized feature gate: NoSuchGate'], ['EphemeralContainers=false', 'locked to true']]),
  row('fail-swap-on', 'true', 'false'),
  row('container-log-max-size', '10Mi', '50Mi'),
  row('container-log-max-files', '5', '2', [['1', 'must be at least 2']]),
  row('system-reserved', undefined, 'cpu=200m,memory=500Mi', [['gpu=1', 'cannot be reserved'], ['memory=lots', 'must be a non-negative quantity']]),
  row('orch-reserved', undefined, 'cpu=100m,ephemeral-storage=1Gi,pid=1000', [['memory=-1Gi', 'must be a non-negative quantity']]),
  row('reserved-cpus', '', '0-1,4', [['3-1', 'must be a CPU list'], ['a', 'must be a CPU list']]),
  row('show-hidden-metrics-for-version', '', '1.31', [['1.30', 'must be 1.31']]),
  row('system-reserved-cgroup', '', '/system-reserved'),
  row('orch-reserved-cgroup', '', '/orch-reserved'),
  row('enforce-node-allocatable', '[pods]', 'pods,system-reserved', [['kube-reserved', 'is not one of none, pods, system-reserved, orch-reserved']]),
  row('allowed-unsafe-sysctls', undefined, 'kernel.msg*,net.core.somaxconn', [['Kernel.MSG', 'is not a sysctl name']]),
  row('volume-plugin-dir', '/usr/libexec/orch/nodeagent-plugins/volume/exec/', '/opt/volume-plugins'),
  row('provider-id', '', 'aws:///us-east-1a/i-0123'),
  row('kernel-memcg-notification', 'false', 'true'),
  row('logging-format', 'text', 'json', [['yaml', 'must be one of "text", "json"']]),
  row('log-flush-frequency', '5s', '1s', [['0s', 'must be greater than 0']]),
  row('v', '0', '4', negative),
  row('vmodule', undefined, 'gc*=3,sync=2'),
  row('log-json-split-stream', 'false', 'true'),
  row('log-json-info-buffer-size', '0', '64Ki'),
  row('reserved-memory', undefined, '0:memory=1Gi,hugepages-1Gi=2Gi;1:memory=2Gi', [['memory=1Gi', 'must be <numaNode>:<resource>=<quantity>'], ['0:cpu=1', 'must be memory or hugepages-<size>']]),
  row('seccomp-default', undefined, 'true'),
  row('register-with-taints', undefined, 'dedicated=infra:NoSchedule,gpu:NoExecute', [['dedicated=infra', 'must be <key>=<value>:<effect>'], ['dedicated=infra:Never', 'taint effect "Never" must be one of']]),
  row('register-node', 'true', 'false'),
  row('local-storage-capacity-isolation', 'true', 'false'),
];

test('every option: its default, a value it takes, and each value its rule refuses', () => {
  const checks = checkOptionTable(NODE_AGENT_FLAGS, [...OWN, ...FIELD_FLAGS]);
  assert.ok(checks > 300, `only ${checks} checks ran`);
});

const CONFIG_NOTE = "This parameter should be set via the config file specified by the node agent's --config flag.";
/** The real agent leaves these command-line forms undeprecated. */
const NOT_DEPRECATED = ['v', 'vmodule', 'log-flush-frequency', 'provider-id', 'seccomp-default'];

test('the command-line form of a file field is deprecated in favour of --config, with a few exceptions', () => {
  assert.equal(NODE_AGENT_FLAGS.parse(['--max-pods=20']).warnings, [`Flag --max-pods has been deprecated, ${CONFIG_NOTE}`]);
  for (const r of FIELD_FLAGS) {
    const deprecated = NODE_AGENT_FLAGS.spec(r.name)!.deprecated;
    if (NOT_DEPRECATED.includes(r.name) || r.name.startsWith('iptables-')) continue;
    assert.is(deprecated, CONFIG_NOTE, `--${r.name}`);
  }
  for (const name of NOT_DEPRECATED) assert.equal(NODE_AGENT_FLAGS.parse([`--${name}=${FIELD_FLAGS.find((r) => r.name === name)!.valid}`]).warnings, [], `--${name}`);
});

test('deprecated options without a file field say what replaces them or when they go', () => {
  const warning = (argv: string[]) => NODE_AGENT_FLAGS.parse(argv).warnings[0];
  assert.is(warning(['--container-runtime=remote']), "Flag --container-runtime has been deprecated, will be removed in 1.27 as the only valid value is 'remote'");
  assert.match(warning(['--maximum-dead-containers=3']), /Use --eviction-hard or --eviction-soft instead/);
  assert.match(warning(['--logtostderr=false']), /--logtostderr has been deprecated, will be removed in a future release/);
  assert.match(warning(['--register-schedulable=false']), /will be removed in a future version/);
  assert.equal(NODE_AGENT_FLAGS.parse(['--node-labels=a=b', '--hostname-override=n1', '--config=x.yaml']).warnings, []);
});

test('command-line forms: short -v, repeatable maps and lists, bare booleans', () => {
  const r = NODE_AGENT_FLAGS.parse(['-v', '3', '--eviction-hard=memory.available<1Gi', '--eviction-hard', 'nodefs.available<5%', '--register-with-taints=a=b:NoSchedule',
    '--register-with-taints=c:NoExecute', '--reserved-memory=0:memory=1Gi', '--reserved-memory=1:memory=2Gi', '--manifest-url-header=a:x,b:y', '--manifest-url-header=a:z', '--fail-swap-on']);
  assert.is(r.extra.v, 3);
  assert.equal(r.extra['eviction-hard'], { 'memory.available': '1Gi', 'nodefs.available': '5%' });
  assert.equal(r.extra['register-with-taints'], [{ key: 'a', value: 'b', effect: 'NoSchedule' }, { key: 'c', effect: 'NoExecute' }]);
  assert.equal(r.extra['reserved-memory'], [{ numaNode: 0, limits: { memory: '1Gi' } }, { numaNode: 1, limits: { memory: '2Gi' } }]);
  assert.equal(r.extra['manifest-url-header'], { a: ['x', 'z'], b: ['y'] });
  assert.is(r.extra['fail-swap-on'], true);
  assert.is(NODE_AGENT_FLAGS.parse(['--eviction-soft-grace-period=memory.available=1m30s']).extra['eviction-soft-grace-period']!['memory.available' as never], 90_000);
});

test.run();
