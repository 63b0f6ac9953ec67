// The orchsim command line: one subcommand per file; errors say what was wrong and exit non-zero.
import { OptionError } from '../../actors/api/options/table.ts';
import { benchHelp, runBench } from './bench.ts';
import { compareCommand, compareHelp } from './compare.ts';
import { controllerManagerCommand } from './controller-manager.ts';
import { credentialsCommand } from './credentials.ts';
import { nodeAgentCommand } from './nodeagent.ts';
import { schedulerCommand } from './scheduler.ts';
import { planCommand, planHelp } from './plan.ts';
import { runCommand, runHelp } from './run.ts';
import { parseServeArgs, startServer } from './serve.ts';

const USAGE = `usage: orchsim <command> [flags]

commands:
  run         a scenario in virtual time: 'orchsim run sim/scenarios/quickstart.yaml'; a summary and a report with charts
  plan        the smallest cluster meeting a scenario's targets: 'orchsim plan sim/scenarios/capacity.yaml'
  compare     two runs' reports side by side, differences marked: 'orchsim compare run-a run-b'
  serve       a cluster's API server on HTTPS for kubectl and controllers, with a kubeconfig written for you
  apiserver   the API server alone, with the component's flags (--bus nats://HOST:PORT lets the components below reach it)
  controller-manager, scheduler, nodeagent
              the other components alone, with their flags (seed 001), against an API server's bus
  credentials the NATS users, API tokens and kubeconfigs that authorize those components on the bus:
              'orchsim credentials --out creds --bus nats://127.0.0.1:4222 --nodes n1,n2'
  bench       benchmarks of your machine and NATS: 'orchsim bench fanout' (watch fan-out)
  help        this text; 'orchsim <command> --help' for a command's flags`;

/** The components beside the API server: each reads its own table, -h and --version included. */
const COMPONENTS: Record<string, (argv: string[]) => Promise<number>> = {
  'controller-manager': controllerManagerCommand,
  scheduler: schedulerCommand,
  nodeagent: nodeAgentCommand,
};

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (!command || command === 'help' || command === '--help' || command === '-h') {
    console.log(USAGE);
    return command ? 0 : 2;
  }
  if (command === 'serve' || command === 'apiserver') {
    // The option table reads -h, --help and --version itself, as the components do.
    const line = parseServeArgs(rest, command);
    if (line.print !== undefined) {
      console.log(line.print);
      return 0;
    }
    const running = await startServer(line, command);
    await new Promise<void>((done) => {
      const stop = () => void running.stop().then(done);
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    });
    return 0;
  }
  const component = COMPONENTS[command];
  if (component) return component(rest);
  if (command === 'credentials') return credentialsCommand(rest);
  if (command === 'run') {
    if (rest.includes('--help') || rest.includes('-h')) {
      console.log(runHelp());
      return 0;
    }
    return runCommand(rest);
  }
  if (command === 'plan') {
    if (rest.includes('--help') || rest.includes('-h')) {
      console.log(planHelp());
      return 0;
    }
    return planCommand(rest);
  }
  if (command === 'compare') {
    if (rest.includes('--help') || rest.includes('-h')) {
      console.log(compareHelp());
      return 0;
    }
    return compareCommand(rest);
  }
  if (command === '__plan-worker') {
    // A worker process of `orchsim plan`: runs what its parent sends until the parent goes.
    const { serveWorker } = await import('../plan-workers.ts');
    serveWorker();
    await new Promise<void>((done) => process.once('disconnect', done));
    return 0;
  }
  if (command === 'bench') {
    if (rest.includes('--help') || rest.includes('-h')) {
      console.log(benchHelp());
      return 0;
    }
    return runBench(rest);
  }
  throw new OptionError(`unknown command ${JSON.stringify(command)}\n\n${USAGE}`);
}

try {
  process.exitCode = await main(process.argv.slice(2));
} catch (e) {
  if (e instanceof OptionError) {
    console.error(`orchsim: ${e.message}`);
    process.exitCode = 2;
  } else {
    console.error(`orchsim: ${(e as Error).message ?? e}`);
    process.exitCode = 1;
  }
}
