// The cluster autoscaler's loop, one machine per autoscaler (`cluster-autoscaler`), as the real
// one's RunOnce every scan interval (cluster-autoscaler 1.32, core/static_autoscaler.go):
//
//   Starting   invoke syncCaches (nodes, pods and budgets listed and watched)     → Running | Failed
//   Running    Waiting     after scanIntervalMs (from the last loop's end)         → ScalingUp
//              ScalingUp   invoke scaleUp: machines that never registered given up on
//                          first (removed: the loop ends                           → Waiting);
//                          unschedulable pods, groups grown?
//                          grown: no scale-down this loop                          → Waiting
//                          else                                                    → Planning
//              Planning    invoke findUnneeded: the nodes that could go now; each
//                          keeps the time it was first found unneeded              → Deciding
//              Deciding    in cooldown (scale-down-delay-after-add since the last
//                          scale-up, -after-delete since the last removal), or no
//                          node unneeded for scale-down-unneeded-time               → Waiting
//                          else                                                    → ScalingDown
//              ScalingDown invoke scaleDown (the due nodes): those whose removal
//                          began leave the unneeded list                           → Waiting
//   any        STOP                                                                → Stopped (final)
//
// Every loop ends by writing the status (`writeStatus`). The host stamps each answer with the
// clock's time (`atMs`): the machine compares times, it reads no clock. The host supplies the
// actors syncCaches, scaleUp, findUnneeded and scaleDown and the actions writeStatus and halt.
import { assign, fromPromise, setup } from 'xstate';
import { failureMessage } from './failure.ts';

export interface ClusterAutoscalerInput {
  readonly scanIntervalMs: number;
  readonly scaleDownEnabled: boolean;
  readonly scaleDownUnneededTimeMs: number;
  readonly scaleDownDelayAfterAddMs: number;
  readonly scaleDownDelayAfterDeleteMs: number;
}

export interface ClusterAutoscalerContext extends ClusterAutoscalerInput {
  /** When the last scale-up was asked for; -Infinity before any. */
  readonly lastScaleUpMs: number;
  /** When the last node removal began; -Infinity before any. */
  readonly lastScaleDownMs: number;
  /** The nodes unneeded now, each with the time it was first found so (continuously since). */
  readonly unneededSince: Readonly<Record<string, number>>;
  /** The time of the last findUnneeded answer. */
  readonly nowMs: number;
  readonly error: string | undefined;
}

export interface ScaleUpResult {
  atMs: number;
  /** Whether a node group was asked to grow this loop. */
  scaledUp: boolean;
  /** Whether the loop ends here without a scale-up (machines that never registered were removed). */
  ended?: boolean;
}

export interface UnneededResult {
  atMs: number;
  /** The nodes that could be removed now, in the order they should go. */
  nodes: string[];
}

export type ClusterAutoscalerEvent = { type: 'STOP' };

/** The unneeded nodes whose time is up, in the planner's order. */
function dueNodes(context: ClusterAutoscalerContext): string[] {
  return Object.entries(context.unneededSince).filter(([, since]) => context.nowMs - since >= context.scaleDownUnneededTimeMs).map(([name]) => name);
}

const inCooldown = (c: ClusterAutoscalerContext) =>
  c.nowMs < c.lastScaleUpMs + c.scaleDownDelayAfterAddMs || c.nowMs < c.lastScaleDownMs + c.scaleDownDelayAfterDeleteMs;

export const clusterAutoscalerMachine = setup({
  types: { context: {} as ClusterAutoscalerContext, input: {} as ClusterAutoscalerInput, events: {} as ClusterAutoscalerEvent },
  actors: {
    syncCaches: fromPromise<void>(() => Promise.reject(new Error('supplied by the cluster autoscaler'))),
    scaleUp: fromPromise<ScaleUpResult>(() => Promise.reject(new Error('supplied by the cluster autoscaler'))),
    findUnneeded: fromPromise<UnneededResult>(() => Promise.reject(new Error('supplied by the cluster autoscaler'))),
    scaleDown: fromPromise<string[], { nodes: string[] }>(() => Promise.reject(new Error('supplied by the cluster autoscaler'))),
  },
  guards: {
    scaledUp: ({ event }) => (event as unknown as { output: ScaleUpResult }).output.scaledUp,
    loopEnded: ({ event }) => (event as unknown as { output: ScaleUpResult }).output.ended === true,
    scaleDownEnabled: ({ context }) => context.scaleDownEnabled,
    inCooldown: ({ context }) => inCooldown(context),
    anyDue: ({ context }) => dueNodes(context).length > 0,
  },
  delays: { scanIntervalMs: ({ context }) => context.scanIntervalMs },
  actions: {
    writeStatus: (_, _params: { cooldown: boolean }) => {},
    halt: () => {},
    noteScaleUp: assign({
      lastScaleUpMs: ({ event }) => (event as unknown as { output: ScaleUpResult }).output.atMs,
      // A scale-up ends the loop; the real planner also starts afresh after one.
      unneededSince: () => ({}),
    }),
    noteUnneeded: assign(({ context, event }) => {
      const { atMs, nodes } = (event as unknown as { output: UnneededResult }).output;
      const since: Record<string, number> = {};
      for (const n of nodes) since[n] = context.unneededSince[n] ?? atMs;
      return { unneededSince: since, nowMs: atMs };
    }),
    noteScaleDown: assign(({ context, event }) => {
      const gone = new Set((event as unknown as { output: string[] }).output);
      if (gone.size === 0) return {};
      return { lastScaleDownMs: context.nowMs, unneededSince: Object.fromEntries(Object.entries(context.unneededSince).filter(([n]) => !gone.has(n))) };
    }),
    noteFailure: assign({ error: ({ event }) => failureMessage(event) }),
  },
}).createMachine({
  id: 'cluster-autoscaler',
  initial: 'Starting',
  context: ({ input }) => ({ ...input, lastScaleUpMs: -Infinity, lastScaleDownMs: -Infinity, unneededSince: {}, nowMs: -Infinity, error: undefined }),
  on: { STOP: '.Stopped' },
  states: {
    Starting: {
      invoke: { id: 'syncCaches', src: 'syncCaches', onDone: 'Running', onError: { target: 'Failed', actions: 'noteFailure' } },
    },
    Running: {
      initial: 'Waiting',
      states: {
        Waiting: { after: { scanIntervalMs: 'ScalingUp' } },
        ScalingUp: {
          invoke: {
            id: 'scaleUp', src: 'scaleUp',
            onDone: [
              { guard: 'scaledUp', target: 'Waiting', actions: ['noteScaleUp', { type: 'writeStatus', params: { cooldown: true } }] },
              { guard: 'loopEnded', target: 'Waiting', actions: { type: 'writeStatus', params: { cooldown: false } } },
              { guard: 'scaleDownEnabled', target: 'Planning' },
              { target: 'Waiting', actions: { type: 'writeStatus', params: { cooldown: false } } },
            ],
            onError: { target: 'Waiting', actions: 'noteFailure' },
          },
        },
        Planning: {
          invoke: { id: 'findUnneeded', src: 'findUnneeded', onDone: { target: 'Deciding', actions: 'noteUnneeded' }, onError: { target: 'Waiting', actions: 'noteFailure' } },
        },
        Deciding: {
          always: [
            { guard: 'inCooldown', target: 'Waiting', actions: { type: 'writeStatus', params: { cooldown: true } } },
            { guard: 'anyDue', target: 'ScalingDown' },
            { target: 'Waiting', actions: { type: 'writeStatus', params: { cooldown: false } } },
          ],
        },
        ScalingDown: {
          invoke: {
            id: 'scaleDown', src: 'scaleDown', input: ({ context }) => ({ nodes: dueNodes(context) }),
            onDone: { target: 'Waiting', actions: ['noteScaleDown', { type: 'writeStatus', params: { cooldown: false } }] },
            onError: { target: 'Waiting', actions: 'noteFailure' },
          },
        },
      },
    },
    Failed: { type: 'final', entry: 'halt' },
    Stopped: { type: 'final', entry: 'halt' },
  },
});
