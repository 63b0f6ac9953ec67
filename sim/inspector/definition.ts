// A machine's definition as the inspector draws it: the states with their nesting, each
// transition with its event (a delay named by its delay), guard, targets and actions, and what
// each state invokes. Taken from XState's own definition of the machine, so the drawing is the
// machine that runs.
import type { AnyStateMachine } from 'xstate';

export interface StateDefinition {
  /** The state's path in the machine: `Running.Normal`; the root is `""`. */
  readonly path: string;
  readonly key: string;
  readonly type: 'atomic' | 'compound' | 'parallel' | 'final' | 'history';
  /** A compound state's initial child, by path. */
  readonly initial?: string;
  readonly states: StateDefinition[];
  readonly transitions: TransitionDefinition[];
  /** The actors it invokes while in it, by source name. */
  readonly invoke: string[];
  readonly entry: string[];
  readonly exit: string[];
}

export interface TransitionDefinition {
  /** The event's type, `after <delay>` for a delayed transition, `always` for an eventless one. */
  readonly event: string;
  /** A delayed transition's delay: a name the machine resolves from its context, or milliseconds. */
  readonly delay?: string | number;
  readonly guard?: string;
  /** The states it enters, by path; none for a transition that only runs actions. */
  readonly targets: string[];
  readonly actions: string[];
}

export interface MachineDefinition {
  readonly id: string;
  readonly root: StateDefinition;
}

interface XStateNode {
  id: string;
  key: string;
  type: StateDefinition['type'];
  initial?: { target: Target[] };
  states: Record<string, XStateNode>;
  transitions: XTransition[];
  invoke: { src: unknown; id: string }[];
  entry: XAction[];
  exit: XAction[];
}
interface XTransition {
  eventType: string;
  delay?: string | number;
  guard?: unknown;
  target: Target[] | undefined;
  actions: XAction[];
}
/** A target as XState keeps it: the state node, or its id. */
type Target = string | { id: string };
type XAction = string | { type?: string } | ((...args: unknown[]) => unknown);

/** `#node.Running.Normal` (or `node.Running.Normal`, or that node) → `Running.Normal`. */
function pathOf(machineId: string, target: Target): string {
  const id = typeof target === 'string' ? target : target.id;
  const bare = id.startsWith('#') ? id.slice(1) : id;
  return bare === machineId ? '' : bare.startsWith(`${machineId}.`) ? bare.slice(machineId.length + 1) : bare;
}

function actionName(a: XAction): string {
  if (typeof a === 'string') return a;
  if (typeof a === 'function') return a.name || 'inline';
  return a.type ?? 'inline';
}

function guardName(g: unknown): string | undefined {
  if (g === undefined) return undefined;
  if (typeof g === 'string') return g;
  if (typeof g === 'function') return g.name || 'inline';
  return (g as { type?: string }).type ?? 'inline';
}

function transition(machineId: string, t: XTransition): TransitionDefinition {
  const guard = guardName(t.guard);
  return {
    event: t.delay !== undefined ? `after ${t.delay}` : t.eventType,
    ...(t.delay !== undefined ? { delay: t.delay } : {}),
    ...(guard !== undefined ? { guard } : {}),
    targets: (t.target ?? []).map((id) => pathOf(machineId, id)),
    actions: t.actions.map(actionName).filter((name) => !name.startsWith('xstate.')),
  };
}

/** A state node as XState runs it: its eventless transitions are kept here, not in the definition. */
interface XLiveNode {
  states: Record<string, XLiveNode>;
  always?: XTransition[];
}

function state(machineId: string, node: XStateNode, live: XLiveNode | undefined): StateDefinition {
  const initial = node.type === 'compound' && node.initial?.target[0] !== undefined ? pathOf(machineId, node.initial.target[0]) : undefined;
  return {
    path: pathOf(machineId, node.id),
    key: node.key,
    type: node.type,
    ...(initial !== undefined ? { initial } : {}),
    states: Object.entries(node.states).map(([key, child]) => state(machineId, child, live?.states[key])),
    transitions: [...node.transitions.map((t) => transition(machineId, t)), ...(live?.always ?? []).map((t) => ({ ...transition(machineId, t), event: 'always' }))],
    invoke: node.invoke.map((i) => (typeof i.src === 'string' ? i.src : i.id)),
    entry: node.entry.map(actionName).filter((name) => !name.startsWith('xstate.')),
    exit: node.exit.map(actionName).filter((name) => !name.startsWith('xstate.')),
  };
}

/** `machine`'s states and transitions, as the inspector draws them. */
export function machineDefinition(machine: AnyStateMachine): MachineDefinition {
  return { id: machine.id, root: state(machine.id, machine.definition as unknown as XStateNode, machine.root as unknown as XLiveNode) };
}
