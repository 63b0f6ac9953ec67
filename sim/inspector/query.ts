// The inspector's answers, as its JSON API gives them: counts per machine and state, pages of
// actors filtered by machine, state, namespace and a search, one actor with its context and its
// newest records, and a machine's definition. Pure reads of the process's actor system: nothing
// here changes the run, and a bad request is an InspectError with the HTTP status to answer.
import type { AnyActorLogic, AnyStateMachine } from 'xstate';
import type { ActorInfo, ActorSystem } from '../../actors/system/actor-system.ts';
import type { InspectionRecord } from '../../actors/system/records.ts';
import { contextJson, type Json } from './context-json.ts';
import { machineDefinition, type MachineDefinition } from './definition.ts';

export class InspectError extends Error {
  constructor(readonly status: 400 | 404 | 409 | 413 | 415, message: string) {
    super(message);
  }
}

export interface Summary {
  /** Milliseconds of the process's clock since its actor system began (virtual under `run`). */
  readonly timeMs: number;
  readonly actors: number;
  /** Actors per machine and state. */
  readonly machines: Record<string, Record<string, number>>;
}

export interface ActorPage {
  readonly items: { id: string; machine: string; state: string; node?: string }[];
  /** Pass it as `continue` for the next page; absent on the last. */
  readonly continue?: string;
}

export interface ActorDetail {
  /** As in the summary: the process clock since the system began. */
  readonly timeMs: number;
  readonly id: string;
  readonly machine: string;
  readonly state: string;
  /** The node it belongs to, when known (a node's own machines, the pods it runs). */
  readonly node?: string;
  /** The live actor's context; null while it hibernates or for an object driven by pure transitions. */
  readonly context: Json;
  /** Each delay the machine names, in ms, as it resolves for this actor now. */
  readonly delays: Record<string, number>;
  /** Its newest records, oldest first. */
  readonly records: readonly InspectionRecord[];
}

const DEFAULT_LIMIT = 100;
const MAX_LIMIT = 1_000;
const FILTERS = ['machine', 'state', 'namespace', 'node', 'q', 'limit', 'continue'];

export class Inspector {
  readonly #systemOf: () => ActorSystem;
  readonly #machines: ReadonlyMap<string, AnyStateMachine>;
  readonly #definitions = new Map<string, MachineDefinition>();

  /** `system()` is the actor system to show: under `run --ui`, the current run's (a replay brings a new one). */
  constructor(system: () => ActorSystem, machines: ReadonlyMap<string, AnyStateMachine>) {
    this.#systemOf = system;
    this.#machines = machines;
  }

  get #system(): ActorSystem {
    return this.#systemOf();
  }

  summary(): Summary {
    const machines: Record<string, Record<string, number>> = {};
    let actors = 0;
    for (const [machine, states] of [...this.#system.counts()].sort(([a], [b]) => a.localeCompare(b))) {
      if (states.size === 0) continue;
      const counts: Record<string, number> = {};
      for (const [state, n] of [...states].sort(([a], [b]) => a.localeCompare(b))) {
        counts[state] = n;
        actors += n;
      }
      machines[machine] = counts;
    }
    return { timeMs: this.#system.elapsedMs(), actors, machines };
  }

  /** A page of actors in the order they were added; `params` as the query string gives them. */
  actors(params: URLSearchParams): ActorPage {
    for (const key of params.keys()) if (!FILTERS.includes(key)) throw new InspectError(400, `unknown parameter ${JSON.stringify(key)}; the actor list takes ${FILTERS.join(', ')}`);
    const machine = params.get('machine') ?? undefined;
    if (machine !== undefined && !this.#machines.has(machine)) throw new InspectError(400, this.#unknownMachine(machine));
    const state = params.get('state') ?? undefined;
    const namespace = params.get('namespace') ?? undefined;
    const node = params.get('node') ?? undefined;
    const q = params.get('q')?.toLowerCase() || undefined;
    const limit = limitOf(params.get('limit'));
    const after = continueOf(params.get('continue'));
    const items: ActorPage['items'] = [];
    let last: ActorInfo | undefined;
    for (const a of this.#system.actors(after)) {
      if (machine !== undefined && a.machine !== machine) continue;
      if (state !== undefined && a.state !== state && !a.state.startsWith(`${state}.`)) continue;
      if (namespace !== undefined && namespaceOf(a.id) !== namespace) continue;
      if (node !== undefined && a.node !== node) continue;
      if (q !== undefined && !a.id.toLowerCase().includes(q)) continue;
      if (items.length === limit) return { items, continue: continueToken(last!.serial) };
      items.push(a.node === undefined ? { id: a.id, machine: a.machine, state: a.state } : { id: a.id, machine: a.machine, state: a.state, node: a.node });
      last = a;
    }
    return { items };
  }

  actor(id: string): ActorDetail {
    const info = this.#system.get(id);
    if (!info) throw new InspectError(404, `no actor ${JSON.stringify(id)}: it never ran or has stopped; GET /inspect/api/actors?q=${encodeURIComponent(id)} searches the ids`);
    const snapshot = this.#system.snapshot(id);
    const logic = (snapshot as { machine?: AnyActorLogic } | undefined)?.machine as AnyStateMachine | undefined;
    const delays: Record<string, number> = {};
    if (snapshot && logic) {
      for (const [name, delay] of Object.entries(logic.implementations.delays ?? {}).sort(([a], [b]) => a.localeCompare(b))) {
        try {
          const ms = typeof delay === 'function' ? (delay as (a: unknown) => unknown)({ context: snapshot.context, event: { type: 'xstate.inspect' } }) : delay;
          if (typeof ms === 'number' && Number.isFinite(ms)) delays[name] = ms;
        } catch {
          // A delay that needs an event this actor has not had: not shown.
        }
      }
    }
    return { timeMs: this.#system.elapsedMs(), id: info.id, machine: info.machine, state: info.state, ...(info.node !== undefined ? { node: info.node } : {}), context: snapshot ? contextJson(snapshot.context) : null, delays,
      records: this.#system.history(id) ?? [] };
  }

  machine(id: string): MachineDefinition {
    const machine = this.#machines.get(id);
    if (!machine) throw new InspectError(404, this.#unknownMachine(id));
    let definition = this.#definitions.get(id);
    if (!definition) this.#definitions.set(id, (definition = machineDefinition(machine)));
    return definition;
  }

  #unknownMachine(id: string): string {
    return `no machine ${JSON.stringify(id)}; the machines are ${[...this.#machines.keys()].sort().join(', ')}`;
  }
}

function limitOf(text: string | null): number {
  if (text === null) return DEFAULT_LIMIT;
  const n = Number(text);
  if (!(Number.isInteger(n) && n >= 1 && n <= MAX_LIMIT)) throw new InspectError(400, `limit must be a whole number from 1 to ${MAX_LIMIT}, got ${JSON.stringify(text)}`);
  return n;
}

/** The continue token: where the last page ended, opaque to the caller. */
function continueToken(serial: number): string {
  return Buffer.from(JSON.stringify({ after: serial })).toString('base64url');
}

function continueOf(text: string | null): number {
  if (text === null || text === '') return -1;
  try {
    const after = (JSON.parse(Buffer.from(text, 'base64url').toString()) as { after?: unknown }).after;
    if (typeof after === 'number' && Number.isInteger(after) && after >= 0) return after;
  } catch {
    // reported below
  }
  throw new InspectError(400, 'continue must be the token the previous page gave; start again without it');
}

/** The namespace in an actor's id, for the kinds that have one: `pod/<ns>/<name>`, `leader/<ns>/…`, `object/<resource>/<ns>/<name>`. */
function namespaceOf(id: string): string | undefined {
  const parts = id.split('/');
  switch (parts[0]) {
    case 'pod':
    case 'leader':
      return parts[1];
    case 'object':
      return parts.length === 4 ? parts[2] : undefined;
    default:
      return undefined;
  }
}
