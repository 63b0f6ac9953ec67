// `orchsim serve` and `orchsim apiserver`: the API server on HTTPS in wall-clock time.
// Both read the API server's option table; serve adds what a person at a terminal wants (a
// kubeconfig to point kubectl at, simulated nodes, local defaults that need no root:
// certificates under ./.orchsim, and listening on 127.0.0.1 only).
import { ComponentTokens } from '../../actors/client/credentials.ts';
import { randomInt } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { helpText } from '../../actors/api/options/help.ts';
import { float, int, string, strings } from '../../actors/api/options/kinds.ts';
import { OptionError, OptionTable, type OptionSpec, type Resolved } from '../../actors/api/options/table.ts';
import { API_SERVER_TABLE, inertAdmissionPlugins, withCodeOnlyFields, type ApiServerOptions } from '../../actors/apiserver/options.ts';
import { clientCa, clientCertificate, servingCert } from '../../actors/apiserver/certs.ts';
import { serveHttps, type Listening } from '../../actors/apiserver/https.ts';
import { tlsServerOptions } from '../../actors/apiserver/tls-versions.ts';
import { sniContexts, type SniContext } from '../../actors/apiserver/sni.ts';
import type { NamedCertKey } from '../../actors/api/options/kinds.ts';
import { ApiServer } from '../../actors/apiserver/server.ts';
import { MetricsServer } from '../../actors/metrics-server/metrics-server.ts';
import { inspectOptions } from '../../actors/system/options.ts';
import { isNatsUrl } from '../../transport/nats-bus.ts';
import { busAddress, connectBus } from './bus-kubeconfig.ts';
import { wallClock } from '../clock.ts';
import { seededRandom } from '../random.ts';
import { RECORDS_PER_ACTOR, startInspector, type InspectorServer } from '../inspector/index.ts';
import { startServedNodes, type ServedNodes } from '../serve-nodes.ts';
import { checkedInspector, inspectorOptions } from './inspector-options.ts';
import { startStatelyBridge } from '../inspector/stately.ts';
import { helpOrVersion, processSystem } from './component-run.ts';
import { ADMIN, writeKubeconfig } from './kubeconfig.ts';
import { SERVE_ISSUER, SERVE_KEY_FILE, withServeTokens } from './service-account-key.ts';

type Mode = 'serve' | 'apiserver';

interface ServeOptions extends ApiServerOptions {
  seed?: number;
  bus?: string;
  busKubeconfig?: string;
  kubeconfigOut?: string;
  nodes: number;
  zones: string[];
  speed: number;
  ui: boolean;
  uiPort?: number;
  inspect?: string;
  inspectActors: string[];
}

const SIMULATOR = 'Simulator options';
const SEED: OptionSpec<ServeOptions> = { name: 'seed', kind: int, key: 'seed', defaultText: 'random, printed first', group: SIMULATOR,
  help: 'the seed of uids and generated names' };
const BUS: OptionSpec<ServeOptions> = { name: 'bus', kind: string, key: 'bus', group: SIMULATOR,
  rule: (v: string) => (isNatsUrl(v) ? undefined : 'must be nats://HOST:PORT (or several, comma-separated)'),
  help: 'serve the API over this NATS server too, so that orchsim controller-manager, scheduler and nodeagent processes reach this server with --master nats://HOST:PORT (default: an in-process bus only)' };
const BUS_KUBECONFIG: OptionSpec<ServeOptions> = { name: 'bus-kubeconfig', kind: string, key: 'busKubeconfig', group: SIMULATOR,
  help: 'serve the API over the NATS server of this kubeconfig, as its user (username and password: the apiserver.kubeconfig orchsim credentials writes, '
    + 'for a nats-server started with its nats-server.conf), so that passwords stay off the command line; --bus, given too, names the server instead' };
const SERVE_ONLY: OptionSpec<ServeOptions>[] = [
  { name: 'kubeconfig-out', kind: string, key: 'kubeconfigOut', default: '.orchsim/kubeconfig', group: SIMULATOR,
    help: 'where the kubeconfig for this server is written, with a fresh admin client certificate and the server\'s certificate' },
  { name: 'nodes', kind: int, key: 'nodes', default: 3, group: SIMULATOR, rule: (v: number) => (v >= 0 && v <= 5000 ? undefined : 'must be from 0 to 5000'),
    help: 'simulated nodes, with a scheduler and the controller manager, so pods get scheduled and run' },
  { name: 'zones', kind: strings, key: 'zones', default: ['zone-a', 'zone-b', 'zone-c'], group: SIMULATOR,
    rule: (v: string[]) => (v.length > 0 && v.every((z) => z !== '') ? undefined : 'must name at least one zone, none empty'), help: 'the zones the nodes are spread over' },
  { name: 'speed', kind: float, key: 'speed', default: 1, group: SIMULATOR, rule: (v: number) => (v >= 1 ? undefined : 'must be at least 1'),
    help: 'run the cluster\'s clock this many times faster than real time' },
  ...inspectorOptions<ServeOptions>(SIMULATOR, ', with this process\'s actors and a control to stop and start each simulated node\'s agent'),
] as OptionSpec<ServeOptions>[];

/**
 * serve's own defaults: certificates under ./.orchsim (no root needed), only this machine may
 * connect (the API server's own default, every interface, is for a cluster's control-plane host),
 * requests are authorized by RBAC and the Node authorizer (the API server's own default,
 * AlwaysAllow, lets anyone do anything), and service-account tokens are issued with a key of the
 * cluster's own (service-account-key.ts); Service cluster IPs come from kubeadm's range, clear of the
 * simulated nodes' pod ranges.
 */
const SERVE_TOKENS = 'when no service-account option is given';
const serveSpec = (s: OptionSpec<ApiServerOptions>) => (s.name === 'cert-dir' ? { ...s, default: '.orchsim/certs' }
  : s.name === 'service-account-issuer' ? { ...s, defaultText: `${SERVE_ISSUER} ${SERVE_TOKENS}` }
  : s.name === 'service-account-signing-key-file' ? { ...s, defaultText: `an RSA key made into --cert-dir (${SERVE_KEY_FILE}) on the first start, ${SERVE_TOKENS}` }
  : s.name === 'bind-address' ? { ...s, default: '127.0.0.1', help: 'the address the secure port listens on; 127.0.0.1 (this machine only) unless given: 0.0.0.0 or :: open it to every interface' }
  : s.name === 'authorization-mode' ? { ...s, default: ['RBAC', 'Node'] }
  // kubeadm's and kind's range: the simulated nodes' pod ranges (10.0.0.0/24 onwards) stay clear of it.
  : s.name === 'service-cluster-ip-range' ? { ...s, default: '10.96.0.0/12' }
  : s) as OptionSpec<ServeOptions>;

const INSPECT = inspectOptions<ServeOptions>(SIMULATOR);

const TABLES: Record<Mode, OptionTable<ServeOptions>> = {
  apiserver: new OptionTable<ServeOptions>('API server', [...API_SERVER_TABLE.specs.map((s) => s as OptionSpec<ServeOptions>), SEED, BUS, BUS_KUBECONFIG, ...INSPECT], API_SERVER_TABLE.crossRules),
  serve: new OptionTable<ServeOptions>('orchsim serve', [...API_SERVER_TABLE.specs.map(serveSpec), SEED, BUS, BUS_KUBECONFIG, ...INSPECT, ...SERVE_ONLY], API_SERVER_TABLE.crossRules),
};

const SUMMARY: Record<Mode, string> = {
  apiserver: 'The orchsim API server alone: the resource protocol on HTTPS, its store in memory. Every option of the API server (seed 001) is accepted and checked; '
    + 'those marked "no effect in the simulator" say why orchsim ignores them.',
  serve: 'A cluster for kubectl and controllers under development: the API server with simulated nodes, a scheduler and the controller manager, in wall-clock time, '
    + 'and a kubeconfig written for you. Takes every API server option (seed 001); those marked "no effect in the simulator" say why orchsim ignores them.',
};

export function serveHelp(mode: Mode): string {
  return helpText(`orchsim ${mode}`, SUMMARY[mode], TABLES[mode]);
}

/** A command line read: help or the version to print, or options to start with. */
export type ServeCommandLine =
  | { print: string }
  | { print?: undefined; options: ServeOptions; warnings: string[]; extra: Record<string, unknown> };

/** Reads the command line; -h, --help and --version win over the other flags' rules. Throws an OptionError. */
export function parseServeArgs(argv: readonly string[], mode: Mode): ServeCommandLine {
  const printed = helpOrVersion(TABLES[mode], argv, mode, () => serveHelp(mode));
  if (printed !== undefined) return { print: printed };
  const resolved: Resolved<ServeOptions> = TABLES[mode].parse(argv);
  return { options: resolved.options, warnings: resolved.warnings, extra: resolved.extra };
}

export interface Running {
  server: ApiServer;
  listening: Listening;
  kubeconfig?: string;
  inspector?: InspectorServer;
  stop(): Promise<void>;
}

/** The pairs of --tls-sni-cert-key, read; one that cannot be read or does not load stops the start with its name. */
function readSni(pairs: readonly NamedCertKey[]): SniContext[] {
  try {
    return sniContexts(pairs);
  } catch (e) {
    throw new OptionError((e as Error).message);
  }
}

/** The CA bundle of --client-ca-file; a file that cannot be read stops the start with its name. */
function readCaBundle(flag: string, file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (e) {
    throw new OptionError(`--${flag} ${file}: ${(e as Error).message}`);
  }
}

/** Starts the server; `serve` mode adds simulated nodes and writes a kubeconfig. Warnings go to `warn`. */
export async function startServer(args: readonly string[] | ServeCommandLine, mode: Mode, log: (line: string) => void = console.log,
  warn: (line: string) => void = console.error): Promise<Running> {
  const line = Array.isArray(args) ? parseServeArgs(args as readonly string[], mode) : (args as ServeCommandLine);
  if (line.print !== undefined) throw new OptionError(`orchsim ${mode}: --help and --version print and exit; nothing to start`);
  const { seed: givenSeed, bus: busUrl, busKubeconfig, kubeconfigOut: out, nodes = 0, zones = [], speed = 1, ui = false, uiPort, inspect, inspectActors = [], ...flags } = line.options;
  const chosen = checkedInspector(line.options);
  // Files the command line names are read before anything starts: a bad one stops it by name.
  const sni = readSni(flags.tlsSniCertKey ?? []);
  const busAt = busUrl === undefined && busKubeconfig === undefined ? undefined : busAddress(busUrl, busKubeconfig);
  const options = withCodeOnlyFields(mode === 'serve' ? withServeTokens(flags) : flags, {});
  for (const w of line.warnings) warn(`warning: ${w}`);
  for (const p of inertAdmissionPlugins(options)) warn(`warning: admission plugin ${p} is accepted but not simulated: it admits everything`);
  const kubeconfigOut = out === undefined ? undefined : resolve(out);
  const seed = givenSeed ?? randomInt(2 ** 31);
  log(`seed ${seed}`);
  const clock = wallClock(speed);
  const root = seededRandom(seed);
  // The API server answers requests rather than sending them: its bus carries no token.
  const bus = busAt && await connectBus({ ...busAt, token: undefined }, 'orchsim-apiserver');
  const stately = chosen ? await startStatelyBridge() : undefined;
  if (stately) log(`Stately inspector for ${inspectActors.join(',')} at ${stately.url}`);
  const inspection = processSystem(clock, line.extra, {
    ...(ui ? { recordsPerActor: RECORDS_PER_ACTOR } : {}), ...(stately && chosen ? { inspect: (id: string) => (chosen(id) ? stately.inspect : undefined) } : {}),
  });
  const { system } = inspection;
  // First, so a port in use stops the command before anything else starts.
  let cluster: ServedNodes | undefined;
  const inspector = ui ? await startInspector(() => system, { ...(uiPort !== undefined ? { port: uiPort } : {}), controls: () => cluster }) : undefined;
  const components = new ComponentTokens();
  const server = new ApiServer(options, { clock, random: root, system, componentTokens: components, ...(bus ? { bus } : {}) });
  await server.start();
  // Both stand in for a cluster with metrics-server installed: `kubectl top` works; it costs nothing until asked.
  // Alone (`orchsim apiserver --bus`), it scrapes the node agents of other processes over NATS.
  server.aggregate(new MetricsServer({ bus: server.bus, clock }));
  const cert = await servingCert(options, clock);
  cluster = nodes > 0
    ? await startServedNodes(server.bus, components.asIdentity, clock, root.fork('cluster'), system, { nodes, zones, rootCa: cert.cert },
      (where, e) => console.error(`${where}: ${(e as Error).message ?? e}`))
    : undefined;
  // serve's kubeconfig carries a client certificate of its own cluster's CA for the admin, made
  // fresh at each start (no secret is shared between installs); --client-ca-file adds another CA.
  const ca = mode === 'serve' ? await clientCa(options.certDir, clock) : undefined;
  const admin = ca && kubeconfigOut ? await clientCertificate(ca, ADMIN.user, ADMIN.groups, clock) : undefined;
  const clientCas = [ca?.cert, options.clientCaFile === undefined ? undefined : readCaBundle('client-ca-file', options.clientCaFile)].filter((p) => p !== undefined);
  const frontProxyCa = options.requestheaderClientCaFile === undefined ? undefined : readCaBundle('requestheader-client-ca-file', options.requestheaderClientCaFile);
  const listening = await serveHttps((req) => server.handle(req), {
    host: options.bindAddress, port: options.securePort, cert: cert.cert, key: cert.key, maxRequestBodyBytes: options.maxRequestBodyBytes,
    ...(clientCas.length ? { clientCa: clientCas.join('\n') } : {}), ...(frontProxyCa ? { frontProxyCa } : {}), ...tlsServerOptions(options),
    arrive: (req) => server.arrive(req), keptApart: (header) => server.keepsApart(header), ...(sni.length ? { sni } : {}),
  });
  if (kubeconfigOut && admin) writeKubeconfig(kubeconfigOut, listening.url, cert.cert, { clientCert: admin });
  const what = cluster ? `, ${nodes} simulated nodes, a scheduler and the controller manager${speed > 1 ? `, time ${speed}× faster` : ''}` : '';
  log(`orchsim API server ready at ${listening.url}${what}${bus ? `, serving on the bus at ${busAt?.url}` : ''}${kubeconfigOut ? `; kubectl --kubeconfig ${kubeconfigOut} get nodes` : ''}`);
  if (inspector) log(`inspector at ${inspector.url}`);
  return {
    server, listening, ...(kubeconfigOut ? { kubeconfig: kubeconfigOut } : {}), ...(inspector ? { inspector } : {}),
    // SIGTERM and SIGINT land here: the API server's graceful termination (/readyz fails at once,
    // requests are served through --shutdown-delay-duration, then drained), then the process exits.
    async stop() {
      await inspector?.close();
      await stately?.close();
      await cluster?.stop();
      await server.shutdown(listening);
      await bus?.close();
      inspection.close();
    },
  };
}
