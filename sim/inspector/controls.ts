// What the inspector may change, under `orchsim serve` only (a run's faults come from its
// scenario, so that it stays deterministic): a simulated node's agent stopped, as `systemctl stop`
// would stop a real one (its Node goes silent, and the node lifecycle controller takes it from
// there), and started again.
import { InspectError } from './query.ts';

export interface NodeControls {
  readonly names: readonly string[];
  running(name: string): boolean;
  stopNode(name: string): boolean;
  startNode(name: string): Promise<boolean>;
}

export interface NodeAgentState {
  readonly name: string;
  readonly agent: 'running' | 'stopped';
}

const ACTIONS = ['stop', 'start'];

export function listNodes(controls: NodeControls | undefined): { nodes: NodeAgentState[] } {
  return { nodes: (controls?.names ?? []).map((name) => ({ name, agent: controls!.running(name) ? 'running' : 'stopped' })) };
}

/** Carries out `{"action": "stop" | "start"}` on node `name`'s agent. */
export async function controlNode(controls: NodeControls | undefined, name: string, body: unknown): Promise<NodeAgentState> {
  if (!controls || !controls.names.includes(name)) {
    throw new InspectError(404, controls?.names.length ? `no simulated node ${JSON.stringify(name)}; the nodes are ${controls.names.join(', ')}`
      : 'no simulated nodes to control in this process (orchsim serve --nodes N has them)');
  }
  const action = (body as { action?: unknown } | null)?.action;
  if (typeof action !== 'string' || !ACTIONS.includes(action)) {
    throw new InspectError(400, `the body must be {"action": "stop"} or {"action": "start"}, got ${JSON.stringify(body)}`);
  }
  const done = action === 'stop' ? controls.stopNode(name) : await controls.startNode(name);
  if (!done) throw new InspectError(409, `node ${name}'s agent is already ${action === 'stop' ? 'stopped' : 'running'}`);
  return { name, agent: action === 'stop' ? 'stopped' : 'running' };
}
