// Who is sending: the actor (or component) whose step is running now. An actor system enters a
// frame while one of its actors takes an event (its actions run inside it) and while an actor it
// invoked starts (a promise actor's first, synchronous part runs inside it); an informer enters
// one for the API server while it tells its handlers of a watch event. What is sent inside a frame
// is the frame's: an event sent to a hosted actor records the frame's id as its sender, and a
// request to the API server is a send record of the frame's actor. Frames nest and are left
// before the step returns, so whatever runs later (a promise's continuation, a timer) runs in
// none, and sends from there have no sender: an actor's own answers and timers, as the inspector
// shows them.
import type { ActorSystem } from './actor-system.ts';
import { actorIds } from './ids.ts';

export interface Sender {
  readonly id: string;
  /** The system the sender is an actor of; undefined for a component outside it (the API server, seen from its watchers). */
  readonly system: ActorSystem | undefined;
}

interface Frame extends Sender {
  readonly below: Frame | undefined;
}

let top: Frame | undefined;

/** The frame that is running, if any. */
export function currentSender(): Sender | undefined {
  return top;
}

/** Enters `id`'s frame; `leave` it, in a `finally`, before returning. */
export function enter(id: string, system: ActorSystem | undefined): Frame {
  return (top = { id, system, below: top });
}

export function leave(frame: Frame): void {
  top = frame.below;
}

/** Runs `fn` as `id` (a component outside the system, such as the API server whose watch event it handles). */
export function asSender<T>(id: string, fn: () => T): T {
  const frame = enter(id, undefined);
  try {
    return fn();
  } finally {
    leave(frame);
  }
}

/** Records a request to the API server (`GET /api/v1/nodes/n1`) as sent by the running actor, if its system records sends. */
export function noteRequest(method: string, url: string): void {
  const s = top;
  if (s?.system?.recordsSends) s.system.sent(s.id, actorIds.apiserver(), `${method} ${url.split('?', 1)[0]}`);
}
