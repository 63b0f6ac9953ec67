// The inspection record: what an actor system writes down, one record per actor start, transition
// and stop, on the clock of its process. `t` is virtual (or wall) milliseconds since the system's
// origin; `seq` numbers the records of one system from 0, so records at the same `t` keep their
// order. A record's fields are always in this order, so the same run gives the same JSON bytes.
//
//   {"t":12000,"seq":41,"kind":"actor","id":"node/pool-3","machine":"node","to":"Starting.Registering"}
//   {"t":12800,"seq":57,"kind":"transition","id":"node/pool-3","machine":"node","event":"xstate.done.actor.register","from":"Starting.Registering","to":"Starting.Leasing"}
//   {"t":335000,"seq":9094,"kind":"transition","id":"node-health/pool-3","machine":"node-health","event":"PASS","sender":"controller/node-lifecycle","from":"Ready.Silent","to":"Unknown.Silent"}
//   {"t":99000,"seq":912,"kind":"stop","id":"node/pool-3","machine":"node"}
//
// An actor record carries the state the actor starts in (`to`); a transition record the event
// that caused it, who sent it when another actor did (senders.ts), and the states before and after. States are dotted paths (`Running.Idle`);
// parallel regions, in a machine that has them, are listed in braces in its order (`Running.{a.X,b.Y}`).

export type InspectionRecord = ActorRecord | TransitionRecord | StopRecord;

export interface ActorRecord {
  readonly t: number;
  readonly seq: number;
  readonly kind: 'actor';
  readonly id: string;
  readonly machine: string;
  readonly to: string;
}

export interface TransitionRecord {
  readonly t: number;
  readonly seq: number;
  readonly kind: 'transition';
  readonly id: string;
  readonly machine: string;
  readonly event: string;
  /** The actor (or component: `apiserver`, for a watch event) that sent the event; absent for the actor's own timers and answers, and for what came from elsewhere. */
  readonly sender?: string;
  readonly from: string;
  readonly to: string;
}

export interface StopRecord {
  readonly t: number;
  readonly seq: number;
  readonly kind: 'stop';
  readonly id: string;
  readonly machine: string;
}

/**
 * A request an actor sent (to the API server): not an inspection record (no `seq`, not in the log),
 * only told to the system's send listeners (an inspector's sequence view).
 *
 *   {"t":12000,"kind":"send","id":"node/pool-3","machine":"node","target":"apiserver","event":"PUT /apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases/pool-3"}
 */
export interface SendRecord {
  readonly t: number;
  readonly kind: 'send';
  readonly id: string;
  readonly machine: string;
  readonly target: string;
  readonly event: string;
}

/** An XState state value as a dotted path: `Running` · `Running.Idle` · `Running.{lease.Waiting,status.Checking}`. */
export function stateName(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === null || typeof value !== 'object') return String(value);
  const keys = Object.keys(value);
  if (keys.length === 1) {
    const key = keys[0]!;
    const inner = (value as Record<string, unknown>)[key];
    return inner === undefined || (typeof inner === 'object' && inner !== null && Object.keys(inner).length === 0) ? key : `${key}.${stateName(inner)}`;
  }
  return `{${keys.map((k) => stateName({ [k]: (value as Record<string, unknown>)[k] })).join(',')}}`;
}

/** The top-level state of a dotted path: `Ready.Heard` → `Ready`. */
export function topState(name: string): string {
  const dot = name.indexOf('.');
  return dot < 0 ? name : name.slice(0, dot);
}
