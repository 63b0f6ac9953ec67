// `orchsim serve` and `orchsim apiserver`: the API server on HTTPS in wall-clock time.
// serve adds what a person at a terminal wants: a kubeconfig to point kubectl at, and local
// defaults that need no root (certificates under ./.orchsim).
import { randomInt } from 'node:crypto';
import { resolve } from 'node:path';
import { apiServerOptions, type ApiServerOptions } from '../../actors/apiserver/options.ts';
import { servingCert } from '../../actors/apiserver/certs.ts';
import { serveHttps, type Listening } from '../../actors/apiserver/https.ts';
import { ApiServer } from '../../actors/apiserver/server.ts';
import { wallClock } from '../clock.ts';
import { seededRandom } from '../random.ts';
import { startServedNodes } from '../serve-nodes.ts';
import { API_SERVER_FLAGS } from './apiserver-flags.ts';
import { flagHelp, parseFlags, UsageError, type FlagSpec } from './flags.ts';
import { ADMIN_TOKEN, ADMIN_USER, writeKubeconfig } from './kubeconfig.ts';

interface ServeDraft extends Partial<ApiServerOptions> {
  kubeconfigOut?: string;
  seed?: number;
  nodes?: number;
  zones?: string[];
  speed?: number;
}

const SERVE_FLAGS: FlagSpec<ServeDraft>[] = [
  ...(API_SERVER_FLAGS as FlagSpec<ServeDraft>[]),
  { name: 'kubeconfig-out', type: 'string', help: 'write a kubeconfig for this server here (serve default: .orchsim/kubeconfig)', set: (o, v) => (o.kubeconfigOut = v as string) },
  { name: 'seed', type: 'int', help: 'seed of uids and generated names (default: random, printed)', set: (o, v) => (o.seed = v as number) },
  { name: 'nodes', type: 'int', help: 'simulated nodes, with a scheduler, so pods get scheduled and run (serve default: 3)', set: (o, v) => (o.nodes = v as number) },
  { name: 'zones', type: 'strings', help: 'zones the simulated nodes are spread over (default: zone-a,zone-b,zone-c)', set: (o, v) => (o.zones = v as string[]) },
  { name: 'speed', type: 'int', help: 'run the cluster\'s clock this many times faster than real time (default 1)', set: (o, v) => (o.speed = v as number) },
];

/** Flags only `serve` has: the API server component takes none of them. */
const SERVE_ONLY = new Set(['kubeconfig-out', 'nodes', 'zones', 'speed']);

export interface Running {
  server: ApiServer;
  listening: Listening;
  kubeconfig?: string;
  stop(): Promise<void>;
}

/** Starts the server; `serve` mode picks local defaults and writes a kubeconfig. */
export async function startServer(argv: string[], mode: 'serve' | 'apiserver', log: (line: string) => void = console.log): Promise<Running> {
  const draft: ServeDraft = mode === 'serve' ? { certDir: resolve('.orchsim/certs'), kubeconfigOut: resolve('.orchsim/kubeconfig') } : {};
  const rest = parseFlags(argv, SERVE_FLAGS.filter((f) => mode === 'serve' || !SERVE_ONLY.has(f.name)), draft);
  if (rest.length > 0) throw new UsageError(`unexpected argument ${JSON.stringify(rest[0])}: orchsim ${mode} takes only flags`);
  const { kubeconfigOut, seed: givenSeed, nodes = mode === 'serve' ? 3 : 0, zones = ['zone-a', 'zone-b', 'zone-c'], speed = 1, ...given } = draft;
  if (!(speed >= 1)) throw new UsageError(`invalid argument ${speed} for --speed: must be at least 1`);
  if (!(nodes >= 0 && nodes <= 5000)) throw new UsageError(`invalid argument ${nodes} for --nodes: must be from 0 to 5000`);
  let options: ApiServerOptions;
  try {
    // The kubeconfig serve writes carries the admin token: the server must know it.
    options = apiServerOptions(mode === 'serve' ? { ...given, tokens: new Map([[ADMIN_TOKEN, ADMIN_USER]]) } : given);
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  const seed = givenSeed ?? randomInt(2 ** 31);
  log(`seed ${seed}`);
  const clock = wallClock(speed);
  const root = seededRandom(seed);
  const server = new ApiServer(options, { clock, random: root });
  await server.start();
  const cluster = nodes > 0
    ? await startServedNodes(server.bus, clock, root.fork('cluster'), { nodes, zones }, (where, e) => console.error(`${where}: ${(e as Error).message ?? e}`))
    : undefined;
  const cert = await servingCert(options, clock);
  const listening = await serveHttps((req) => server.handle(req), {
    host: options.bindAddress, port: options.securePort, cert: cert.cert, key: cert.key, maxRequestBodyBytes: options.maxRequestBodyBytes,
  });
  if (kubeconfigOut) writeKubeconfig(kubeconfigOut, listening.url, cert.cert);
  const what = cluster ? `, ${nodes} simulated nodes, a scheduler and the controller manager${speed > 1 ? `, time ${speed}× faster` : ''}` : '';
  log(`orchsim API server ready at ${listening.url}${what}${kubeconfigOut ? `; kubectl --kubeconfig ${kubeconfigOut} get nodes` : ''}`);
  return {
    server, listening, ...(kubeconfigOut ? { kubeconfig: kubeconfigOut } : {}),
    async stop() {
      await cluster?.stop();
      server.stop();
      await listening.close();
    },
  };
}

export function serveHelp(mode: 'serve' | 'apiserver'): string {
  return `usage: orchsim ${mode} [flags]\n\n${flagHelp(SERVE_FLAGS.filter((f) => mode === 'serve' || !SERVE_ONLY.has(f.name)) as FlagSpec<unknown>[])}`;
}
