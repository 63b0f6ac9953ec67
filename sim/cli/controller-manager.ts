// `orchsim controller-manager`: the controller manager as a component of its own, with seed
// 001's flags, against an API server's bus, in wall-clock time.
import { readFileSync } from 'node:fs';
import { helpText } from '../../actors/api/options/help.ts';
import { OptionError } from '../../actors/api/options/table.ts';
import { ApiClient } from '../../actors/client/client.ts';
import { ControllerManager, controllerServiceAccounts } from '../../actors/controller-manager/controller-manager.ts';
import { ServiceAccountCredentials } from '../../actors/controller-manager/service-account-credentials.ts';
import { CONTROLLER_MANAGER_TABLE } from '../../actors/controller-manager/options.ts';
import { wallClock } from '../clock.ts';
import { seededRandom } from '../random.ts';
import { busAddress, connectBus } from './bus-kubeconfig.ts';
import { processSystem, replicaIdentity, serveSecurePort, helpOrVersion, untilSignal } from './component-run.ts';

const SUMMARY = 'The controller manager runs the control loops: each watches shared state through the API server and moves the current state towards the desired one (node lifecycle and taint eviction, ReplicaSets, Deployments, DaemonSets, StatefulSets, garbage collection, namespaces, pod GC, Endpoints and EndpointSlices, service accounts, the root CA ConfigMap).';

export const controllerManagerHelp = (): string => helpText('orchsim controller-manager', SUMMARY, CONTROLLER_MANAGER_TABLE);

export async function controllerManagerCommand(argv: string[], log: (line: string) => void = console.log): Promise<number> {
  const printed = helpOrVersion(CONTROLLER_MANAGER_TABLE, argv, 'controller-manager', controllerManagerHelp);
  if (printed !== undefined) {
    log(printed);
    return 0;
  }
  const cmd = CONTROLLER_MANAGER_TABLE.parse(argv);
  for (const w of cmd.warnings) console.error(`warning: ${w}`);
  const rootCa = readRootCa(cmd.extra['root-ca-file'] as string | undefined);
  const clock = wallClock();
  const inspection = processSystem(clock, cmd.extra);
  const bus = await connectBus(busAddress(cmd.extra.master as string | undefined, cmd.extra.orchconfig as string | undefined), 'orchsim-controller-manager');
  const identity = replicaIdentity();
  // Each controller as its own service account: the manager fetches their tokens with its own credentials.
  const accounts = cmd.options.useServiceAccountCredentials ? new ServiceAccountCredentials(new ApiClient(bus, 'controller-manager/service-accounts'), clock) : undefined;
  try {
    await accounts?.prepare(controllerServiceAccounts(cmd.options));
  } catch (e) {
    await bus.close();
    throw e;
  }
  const manager = new ControllerManager({
    bus, clock, ...(accounts ? { asIdentity: accounts.asIdentity } : {}), random: seededRandom(identity), options: cmd.options, identity, system: inspection.system,
    ...(rootCa !== undefined ? { rootCa } : {}),
    onLeading: (id, leading) => log(leading ? `${id} leads ${cmd.options.leaderElectResourceName}: running its controllers` : `${id} no longer leads`),
    onError: (controller, e) => console.error(`${controller}: ${(e as Error).message ?? e}`),
  });
  let stopping = false;
  const server = await serveSecurePort(cmd.extra, 'controller-manager', () => [manager.metrics], {
    healthz: { leaderElection: () => manager.replica.healthy },
    readyz: { leaderElection: () => manager.replica.healthy, shutdown: () => !stopping },
  });
  await manager.start();
  log(`orchsim controller-manager ${identity} started${cmd.options.leaderElect ? `, campaigning for ${cmd.options.leaderElectResourceNamespace}/${cmd.options.leaderElectResourceName}` : ''}${server ? `; /healthz and /metrics at ${server.url}` : ''}`);
  const signal = await untilSignal();
  log(`${signal}: stopping`);
  stopping = true;
  await manager.stop();
  await server?.close();
  await bus.close();
  inspection.close();
  return 0;
}

/** The CA bundle of --root-ca-file, which the root-ca-cert-publisher publishes; a file that cannot be read stops the start with its name. */
function readRootCa(file: string | undefined): string | undefined {
  if (file === undefined) return undefined;
  try {
    return readFileSync(file, 'utf8');
  } catch (e) {
    throw new OptionError(`--root-ca-file ${file}: ${(e as Error).message}`);
  }
}
