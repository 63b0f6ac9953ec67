// `orchsim scheduler`: the scheduler as a component of its own, with seed 001's flags and
// configuration file, against an API server's bus, in wall-clock time.
import { writeFileSync } from 'node:fs';
import { stringify } from 'yaml';
import { fieldsHelp, helpText } from '../../actors/api/options/help.ts';
import { CONFIG_API_VERSION, CONFIG_KIND, SCHEDULER_CONFIG, SCHEDULER_FLAGS, configDocument, schedulerFromArgs } from '../../actors/scheduler/options.ts';
import { schedulerReplica } from '../../actors/scheduler/replica.ts';
import { wallClock } from '../clock.ts';
import { seededRandom } from '../random.ts';
import { busAddress, connectBus } from './bus-kubeconfig.ts';
import { processSystem, readMappingFile, replicaIdentity, serveSecurePort, helpOrVersion, untilSignal } from './component-run.ts';

const SUMMARY = 'The scheduler assigns pods to nodes: it finds the nodes a pod fits under its constraints and resources, ranks them, and binds the pod to the best. Several schedulers may run in one cluster, each serving its spec.schedulerName.';

export function schedulerHelp(): string {
  return `${helpText('orchsim scheduler', SUMMARY, SCHEDULER_FLAGS)}\n${fieldsHelp(`The --config file: YAML or JSON, apiVersion ${CONFIG_API_VERSION}, kind ${CONFIG_KIND}, its fields nested as the dots say.`, SCHEDULER_CONFIG)}`;
}

export async function schedulerCommand(argv: string[], log: (line: string) => void = console.log): Promise<number> {
  const printed = helpOrVersion(SCHEDULER_FLAGS, argv, 'scheduler', schedulerHelp);
  if (printed !== undefined) {
    log(printed);
    return 0;
  }
  const cmd = schedulerFromArgs(argv, readMappingFile);
  for (const w of cmd.warnings) console.error(`warning: ${w}`);
  const writeTo = cmd.extra['write-config-to'] as string | undefined;
  if (writeTo !== undefined) {
    writeFileSync(writeTo, stringify(configDocument(cmd.options)));
    log(`wrote the configuration to ${writeTo}`);
    return 0;
  }
  const clock = wallClock();
  const inspection = processSystem(clock, cmd.extra);
  const bus = await connectBus(busAddress(cmd.extra.master as string | undefined, cmd.kubeconfig, '--config FILE with clientConnection.kubeconfig'), 'orchsim-scheduler');
  const identity = replicaIdentity();
  const replica = schedulerReplica({
    bus, clock, random: seededRandom(identity), options: cmd.options, identity, system: inspection.system,
    onLeading: (lock, id, leading) => log(leading ? `${id} leads ${lock}: scheduling pods of ${cmd.options.schedulerName}` : `${id} no longer leads ${lock}`),
    onError: (e) => console.error(`scheduler: ${(e as Error).message ?? e}`),
  });
  let stopping = false;
  const server = await serveSecurePort(cmd.extra, 'scheduler', () => [replica.metrics], {
    healthz: { leaderElection: () => replica.healthy },
    readyz: { leaderElection: () => replica.healthy, shutdown: () => !stopping },
  });
  await replica.start();
  log(`orchsim scheduler ${identity} started${cmd.options.leaderElect ? `, campaigning for ${cmd.options.leaderElectResourceNamespace}/${cmd.options.leaderElectResourceName}` : ''}${server ? `; /healthz and /metrics at ${server.url}` : ''}`);
  const signal = await untilSignal();
  log(`${signal}: stopping`);
  stopping = true;
  await replica.stop();
  await server?.close();
  await bus.close();
  inspection.close();
  return 0;
}
