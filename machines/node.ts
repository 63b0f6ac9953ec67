// A node as the cluster sees it: its agent renewing the node's Lease, and the controller manager's
// verdict on the node's health. Two parallel regions:
//
//   agent:   Starting   after plan.registerMs            → Renewing (registers, first renewal)
//            Renewing   after plan.leaseRenewMs          → Renewing (renews; emits `leaseRenewed`)
//            Starting, Renewing   STOP (crash, shutdown) → Stopped
//            Stopped    START                            → Starting
//   status:  Registering  LEASE_RENEWED                  → Ready
//            Ready        LEASE_RENEWED                  → Ready (the grace timer starts over)
//            Ready        after nodeMonitorGracePeriodMs → NotReady (renewals stopped)
//            NotReady     LEASE_RENEWED                  → Ready
//
// Every renewal is raised as LEASE_RENEWED to the status region and emitted as `leaseRenewed` for
// the hosting actor, which writes the Lease. A host that renews leases itself can drive the status
// region alone by sending LEASE_RENEWED. The conditions in the context follow the node agent's
// reports (REPORT_CONDITIONS) while the node is Ready, and turn Unknown when it goes NotReady, as
// the node lifecycle controller writes them. Per-renewal jitter is drawn once per node (the plan).
import { assign, emit, raise, setup } from 'xstate';
import type { NodePlan } from './stages.ts';

export type ConditionStatus = 'True' | 'False' | 'Unknown';

export interface NodeConditions {
  readonly Ready: ConditionStatus;
  readonly MemoryPressure: ConditionStatus;
  readonly DiskPressure: ConditionStatus;
  readonly PIDPressure: ConditionStatus;
}

/** What the agent last reported; kept so the conditions come back when the node does. */
export interface NodePressure {
  readonly memory: boolean;
  readonly disk: boolean;
  readonly pid: boolean;
}

export interface NodeContext extends NodePlan {
  readonly pressure: NodePressure;
  readonly conditions: NodeConditions;
}

export type NodeInput = NodePlan;

export type NodeEvent =
  | { type: 'STOP' }
  | { type: 'START' }
  | { type: 'LEASE_RENEWED' }
  | { type: 'REPORT_CONDITIONS'; pressure: Partial<NodePressure> };

export type NodeEmitted = { type: 'leaseRenewed' };

const NO_PRESSURE: NodePressure = { memory: false, disk: false, pid: false };

const status = (b: boolean): ConditionStatus => (b ? 'True' : 'False');

function reported(ready: ConditionStatus, p: NodePressure): NodeConditions {
  return { Ready: ready, MemoryPressure: status(p.memory), DiskPressure: status(p.disk), PIDPressure: status(p.pid) };
}

const UNKNOWN: NodeConditions = { Ready: 'Unknown', MemoryPressure: 'Unknown', DiskPressure: 'Unknown', PIDPressure: 'Unknown' };

export const nodeMachine = setup({
  types: {
    context: {} as NodeContext,
    input: {} as NodeInput,
    events: {} as NodeEvent,
    emitted: {} as NodeEmitted,
  },
  delays: {
    registerMs: ({ context }) => context.registerMs,
    leaseRenewMs: ({ context }) => context.leaseRenewMs,
    nodeMonitorGracePeriodMs: ({ context }) => context.nodeMonitorGracePeriodMs,
  },
  actions: {
    renewLease: emit({ type: 'leaseRenewed' } as const),
    announceRenewal: raise({ type: 'LEASE_RENEWED' } as const),
    markReady: assign({ conditions: ({ context }) => reported('True', context.pressure) }),
    markUnknown: assign({ conditions: UNKNOWN }),
    recordPressure: assign({
      pressure: ({ context, event }) => (event.type === 'REPORT_CONDITIONS' ? { ...context.pressure, ...event.pressure } : context.pressure),
    }),
    reportPressure: assign({ conditions: ({ context }) => reported(context.conditions.Ready, context.pressure) }),
  },
}).createMachine({
  id: 'node',
  type: 'parallel',
  context: ({ input }) => ({ ...input, pressure: NO_PRESSURE, conditions: reported('False', NO_PRESSURE) }),
  states: {
    agent: {
      initial: 'Starting',
      states: {
        Starting: {
          id: 'node.agent.Starting',
          after: { registerMs: 'Renewing' },
          on: { STOP: 'Stopped' },
        },
        Renewing: {
          id: 'node.agent.Renewing',
          entry: ['renewLease', 'announceRenewal'],
          after: { leaseRenewMs: { target: 'Renewing', reenter: true } },
          on: {
            STOP: 'Stopped',
            // Pressure is known only while the agent runs; the status region decides what shows.
            REPORT_CONDITIONS: { actions: 'recordPressure' },
          },
        },
        Stopped: { on: { START: 'Starting' } },
      },
    },
    status: {
      initial: 'Registering',
      states: {
        Registering: { on: { LEASE_RENEWED: 'Ready' } },
        Ready: {
          id: 'node.status.Ready',
          entry: 'markReady',
          after: { nodeMonitorGracePeriodMs: 'NotReady' },
          on: {
            LEASE_RENEWED: { target: 'Ready', reenter: true },
            REPORT_CONDITIONS: { actions: 'reportPressure' },
          },
        },
        NotReady: {
          entry: 'markUnknown',
          on: { LEASE_RENEWED: 'Ready' },
        },
      },
    },
  },
});

/** The node's health as the controller manager sees it. */
export type NodeStatus = 'Registering' | 'Ready' | 'NotReady';
