// Waiting for a hosted actor to reach a state: how a host's start() and stop() resolve once its
// machine says the component runs (or failed, or stopped).
import type { AnyActorRef, SnapshotFrom } from 'xstate';

/** What a snapshot means to the waiter: settled (resolve), failed (reject with this error), or not yet. */
export type Verdict = 'settled' | Error | undefined;

/** Resolves once `judge` settles on the actor's snapshot, now or later; rejects with the error it gives. */
export function whenState<A extends AnyActorRef>(actor: A, judge: (snapshot: SnapshotFrom<A>) => Verdict): Promise<void> {
  return new Promise((resolve, reject) => {
    const decide = (snapshot: SnapshotFrom<A>): boolean => {
      const v = judge(snapshot);
      if (v === undefined) return false;
      if (v === 'settled') resolve();
      else reject(v);
      return true;
    };
    if (decide(actor.getSnapshot() as SnapshotFrom<A>)) return;
    const sub = actor.subscribe((s: SnapshotFrom<A>) => {
      if (decide(s)) queueMicrotask(() => sub.unsubscribe());
    });
  });
}

/** A component's machine with Running and Failed states, the failure's text in its context. */
type RunnableActor = AnyActorRef & { start(): void; getSnapshot(): { matches(state: 'Running' | 'Failed'): boolean; context: { error?: string | undefined } } };

/** Starts the actor; resolves once its machine is Running, rejects with its error once it is Failed. */
export function startRunning(actor: RunnableActor): Promise<void> {
  const started = whenState(actor, (s) => {
    const snapshot = s as ReturnType<RunnableActor['getSnapshot']>;
    return snapshot.matches('Running') ? 'settled' : snapshot.matches('Failed') ? new Error(snapshot.context.error) : undefined;
  });
  actor.start();
  return started;
}
