// The options every orchsim process takes for its actor system's inspection record
// (`--inspect-log FILE`, `--inspect-machines node-health,zone`), and the machines it may name.
import type { AnyStateMachine } from 'xstate';
import { string, strings } from '../api/options/kinds.ts';
import type { OptionSpec } from '../api/options/table.ts';
import { apiServerMachine } from '../../machines/apiserver.ts';
import { componentMachine } from '../../machines/component.ts';
import { controllerMachine } from '../../machines/controller.ts';
import { leaderMachine } from '../../machines/leader.ts';
import { nodeHealthMachine } from '../../machines/node-health.ts';
import { nodeMachine } from '../../machines/node.ts';
import { objectMachine } from '../../machines/object.ts';
import { podMachine } from '../../machines/pod.ts';
import { schedulerMachine } from '../../machines/scheduler.ts';
import { zoneMachine } from '../../machines/zone.ts';
import { clusterAutoscalerMachine } from '../../machines/cluster-autoscaler.ts';

/** Every machine an orchsim process hosts, by its id (an inspector draws them from here). */
export const MACHINES: ReadonlyMap<string, AnyStateMachine> = new Map([apiServerMachine, componentMachine, controllerMachine, leaderMachine,
  nodeHealthMachine, nodeMachine, objectMachine, podMachine, schedulerMachine, zoneMachine, clusterAutoscalerMachine].map((m) => [m.id, m as AnyStateMachine]));

/** The machines' ids, sorted: what `--inspect-machines` may name. */
export const MACHINE_IDS: readonly string[] = [...MACHINES.keys()].sort();

/** A `--inspect-machines` list's problem, or undefined. */
export function machinesRule(machines: readonly string[]): string | undefined {
  const unknown = machines.find((m) => !MACHINE_IDS.includes(m));
  return unknown === undefined ? undefined : `names ${JSON.stringify(unknown)}, which is not a machine; the machines are ${MACHINE_IDS.join(', ')}`;
}

/** The two options, in help group `group`, read into the command's extra values. */
export function inspectOptions<T>(group: string): OptionSpec<T>[] {
  return [
    { name: 'inspect-log', kind: string, group, help: 'write every actor start, transition and stop to this file as JSON lines, on the process\'s clock (see actors/system/README.md)' },
    { name: 'inspect-machines', kind: strings, default: [], group, rule: machinesRule,
      help: `with --inspect-log, only these machines' records (${MACHINE_IDS.join(', ')})` },
  ] as OptionSpec<T>[];
}
