// `orchsim nodeagent`: one simulated node as a component of its own, with seed 001's command line
// and NodeAgentConfiguration file, registering with the API server found through --orchconfig
// (a kubeconfig whose server is the bus the API server serves on), in wall-clock time.
import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { helpText } from '../../actors/api/options/help.ts';
import { OptionError } from '../../actors/api/options/table.ts';
import { CONFIG_API_VERSION, CONFIG_KIND, loadNodeAgentConfig, nodeAgentOptionsFromConfig, type LoadedNodeAgentConfig } from '../../actors/nodeagent/config.ts';
import { NODE_AGENT_FLAGS } from '../../actors/nodeagent/flags.ts';
import { NodeAgent } from '../../actors/nodeagent/nodeagent.ts';
import { nodeAgentGuard } from '../../actors/nodeagent/server-auth.ts';
import { ApiClient } from '../../actors/client/client.ts';
import type { NodeAgentOptions } from '../../actors/nodeagent/options.ts';
import { wallClock } from '../clock.ts';
import { seededRandom } from '../random.ts';
import { startComponentServer } from '../component-server.ts';
import { natsUser } from '../nats-permissions.ts';
import { busAddress, connectBus } from './bus-kubeconfig.ts';
import { helpOrVersion, processSystem, untilSignal } from './component-run.ts';

const SUMMARY = 'The node agent registers its node, renews its Lease, reports node status and runs the pods bound to its node (here, through the pod machine: simulated containers). '
  + `The --config file is YAML or JSON, apiVersion ${CONFIG_API_VERSION}, kind ${CONFIG_KIND}: its fields are the camelCase names of the configuration-file options below.`;

function readClientCa(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (e) {
    throw new OptionError(`authentication.x509.clientCAFile ${path}: ${(e as Error).message}`);
  }
}

export const nodeAgentHelp = (): string => helpText('orchsim nodeagent', SUMMARY, NODE_AGENT_FLAGS);

const ZONE_LABELS = ['topology.kubernetes.io/zone', 'failure-domain.beta.kubernetes.io/zone'];
const REGION_LABELS = ['topology.kubernetes.io/region', 'failure-domain.beta.kubernetes.io/region'];

/** The simulated agent's options: the configuration's, then the node's identity, place and capacity from the flags. */
export function commandLineAgent(loaded: LoadedNodeAgentConfig): { nodeName: string; options: Partial<NodeAgentOptions> } {
  const f = loaded.flags;
  const labels = (f['node-labels'] as Record<string, string> | undefined) ?? {};
  const capacity = f['simulated-capacity'] as Record<string, string>;
  const first = (keys: string[]) => keys.map((k) => labels[k]).find((v) => v !== undefined) ?? '';
  const nodeIp = (f['node-ip'] as string | undefined)?.split(',')[0];
  return {
    nodeName: ((f['hostname-override'] as string | undefined) ?? hostname()).trim().toLowerCase(),
    options: {
      ...nodeAgentOptionsFromConfig(loaded),
      zone: first(ZONE_LABELS), region: first(REGION_LABELS),
      ...(capacity.cpu ? { cpu: capacity.cpu } : {}), ...(capacity.memory ? { memory: capacity.memory } : {}),
      ...(capacity['ephemeral-storage'] ? { ephemeralStorage: capacity['ephemeral-storage'] } : {}),
      ...(nodeIp && nodeIp !== '0.0.0.0' && nodeIp !== '::' ? { internalIP: nodeIp } : {}),
      ...(loaded.config.podCIDR ? { podCIDR: loaded.config.podCIDR } : {}),
    },
  };
}

export async function nodeAgentCommand(argv: string[], log: (line: string) => void = console.log): Promise<number> {
  const printed = helpOrVersion(NODE_AGENT_FLAGS, argv, 'nodeagent', nodeAgentHelp);
  if (printed !== undefined) {
    log(printed);
    return 0;
  }
  const loaded = loadNodeAgentConfig(argv, (path) => readFileSync(path, 'utf8'));
  for (const w of loaded.warnings) console.error(`warning: ${w}`);
  if (loaded.flags.orchconfig === undefined)
    throw new OptionError('--orchconfig is required: standalone mode (static pods only) is not simulated; give a kubeconfig whose server is the API server\'s bus (nats://HOST:PORT)');
  const { nodeName, options } = commandLineAgent(loaded);
  const address = busAddress(undefined, loaded.flags.orchconfig as string);
  // Another node's credentials would only be refused, subject by subject: say so at once.
  if (address.user?.startsWith('node-') && address.user !== natsUser({ kind: 'node', name: nodeName }))
    throw new OptionError(`--orchconfig ${loaded.flags.orchconfig}: its NATS user is ${address.user}, not this node's (${natsUser({ kind: 'node', name: nodeName })}): give node ${nodeName}'s kubeconfig, or --hostname-override the node it is for`);
  const clock = wallClock();
  const inspection = processSystem(clock, loaded.flags);
  const bus = await connectBus(address, `orchsim-nodeagent-${nodeName}`);
  const agent = new NodeAgent({ bus, clock, random: seededRandom(nodeName), nodeName, options, system: inspection.system,
    onError: (e) => console.error(`nodeagent ${nodeName}: ${(e as Error).message ?? e}`) });
  const c = loaded.config;
  const syncloop = { syncloop: () => agent.state.startsWith('Running') };
  // The secure server (/metrics, /healthz) on address:port, as the real agent's; /healthz alone on healthzBindAddress:healthzPort.
  const servers = [
    c.enableServer ? await startComponentServer({ bindAddress: c.address, port: c.port, pairName: 'nodeagent', registries: () => [agent.metrics],
      certDir: loaded.flags['cert-dir'] as string, ...(c.tlsCertFile ? { tlsCertFile: c.tlsCertFile, tlsPrivateKeyFile: c.tlsPrivateKeyFile } : {}),
      checks: { healthz: syncloop }, guard: nodeAgentGuard({ config: c, nodeName, clock, client: new ApiClient(bus, `nodeagent/${nodeName}`) }),
      ...(c.authentication.x509.clientCAFile ? { clientCa: readClientCa(c.authentication.x509.clientCAFile) } : {}) }) : undefined,
    await startComponentServer({ bindAddress: c.healthzBindAddress, port: c.healthzPort, insecure: true, registries: () => [], checks: { healthz: syncloop } }),
  ].filter((s) => s !== undefined);
  await agent.start();
  log(`orchsim nodeagent ${nodeName} registered (${options.cpu ?? '4'} CPU, ${options.memory ?? '16Gi'}, at most ${options.maxPods} pods${options.zone ? `, zone ${options.zone}` : ''})${servers.length ? `; serving ${servers.map((s) => s.url).join(' and ')}` : ''}`);
  const signal = await untilSignal();
  log(`${signal}: stopping`);
  agent.stop();
  for (const s of servers) await s.close();
  await bus.close();
  inspection.close();
  return 0;
}
