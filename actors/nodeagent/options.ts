// The node agent's configuration: the configuration-file fields this slice honours (seed 001,
// "Node agent: configuration file"), with the real defaults, merged once and checked here.
// Durations carry their unit in the name; the file's `10s` forms are parsed before they get here.
import { podStages, type PodStageTable } from '../../machines/stages.ts';
import { memoryThreshold } from './pressure-eviction.ts';
import { parseQuantity } from '../api/quantity.ts';
import type { Taint } from '../api/model/core.ts';

export type { Taint };

export interface NodeAgentOptions {
  /** `nodeLeaseDurationSeconds`: the Lease's duration; it is renewed every quarter of it. */
  nodeLeaseDurationSeconds: number;
  /** The renewal period's jitter factor (the real agent's lease controller uses 0.04): up to period × factor later. */
  leaseRenewJitterFactor: number;
  /** `nodeStatusUpdateFrequency`: how often the agent computes its node's status. */
  nodeStatusUpdateFrequencyMs: number;
  /** `nodeStatusReportFrequency`: the longest an unchanged status goes unwritten. */
  nodeStatusReportFrequencyMs: number;
  /** `maxPods`: pods beyond this many (not yet finished) are rejected with reason OutOfpods. */
  maxPods: number;
  /** `podsPerCore`: when above 0, the node takes at most this many pods per CPU core (and never more than maxPods). */
  podsPerCore: number;
  /** `evictionHard`: signal → threshold; `memory.available` (quantity or percentage) is simulated. */
  evictionHard: Record<string, string>;
  /** `evictionPressureTransitionPeriod`: how long a pressure condition stays True after the pressure ends. */
  evictionPressureTransitionPeriodMs: number;

  /** `orchAPIQPS`, `orchAPIBurst`: the agent's limit towards the API server (leases and node status are not limited); 0 QPS: no limit. */
  orchApiQps: number;
  orchApiBurst: number;
  /** `eventRecordQPS`, `eventBurst`: the limit of the agent's event writes (a client of their own); 0 QPS: no limit. */
  eventRecordQps: number;
  eventBurst: number;

  /** `registerWithTaints`: taints the Node is created with. */
  registerWithTaints: Taint[];
  /** Extra `--node-labels`. */
  nodeLabels: Record<string, string>;
  /** Written as `topology.kubernetes.io/region` and `/zone` when not empty. */
  region: string;
  zone: string;
  /** Capacity, as quantities; allocatable equals capacity in this slice (no reservations). */
  cpu: string;
  memory: string;
  ephemeralStorage: string;
  /** The node's pod range, /24; pod IPs come from it. */
  podCIDR: string;
  /** The node's own address (InternalIP). */
  internalIP: string;
  /** How long each pod stage takes (machines/stages.ts). */
  podStages: PodStageTable;
}

export const defaultNodeAgentOptions: Readonly<NodeAgentOptions> = {
  nodeLeaseDurationSeconds: 40,
  leaseRenewJitterFactor: 0.04,
  nodeStatusUpdateFrequencyMs: 10_000,
  nodeStatusReportFrequencyMs: 5 * 60_000, // 5m0s
  maxPods: 110,
  podsPerCore: 0,
  evictionHard: { 'memory.available': '100Mi', 'nodefs.available': '10%', 'imagefs.available': '15%', 'nodefs.inodesFree': '5%' },
  evictionPressureTransitionPeriodMs: 5 * 60_000,
  orchApiQps: 5,
  orchApiBurst: 10,
  eventRecordQps: 5,
  eventBurst: 10,
  registerWithTaints: [],
  nodeLabels: {},
  region: '',
  zone: '',
  cpu: '4',
  memory: '16Gi',
  ephemeralStorage: '100Gi',
  podCIDR: '10.244.0.0/24',
  internalIP: '10.0.0.1',
  podStages: podStages(),
};

/** The pods a node takes: maxPods, lowered by podsPerCore × cores when podsPerCore is set. */
export function podLimit(o: Pick<NodeAgentOptions, 'maxPods' | 'podsPerCore' | 'cpu'>): number {
  return o.podsPerCore > 0 ? Math.min(o.maxPods, o.podsPerCore * Math.floor(parseQuantity(o.cpu))) : o.maxPods;
}

/** Merges `options` over the defaults and validates the result; throws a RangeError naming the bad field. */
export function nodeAgentOptions(options: Partial<NodeAgentOptions> = {}): NodeAgentOptions {
  const o: NodeAgentOptions = { ...defaultNodeAgentOptions, ...options };
  const positive = (name: keyof NodeAgentOptions, v: number) => {
    if (!(Number.isFinite(v) && v > 0)) throw new RangeError(`nodeagent option ${name} must be a positive number, got ${v}`);
  };
  positive('nodeLeaseDurationSeconds', o.nodeLeaseDurationSeconds);
  positive('nodeStatusUpdateFrequencyMs', o.nodeStatusUpdateFrequencyMs);
  positive('nodeStatusReportFrequencyMs', o.nodeStatusReportFrequencyMs);
  if (!(Number.isInteger(o.maxPods) && o.maxPods > 0)) throw new RangeError(`nodeagent option maxPods must be a positive integer, got ${o.maxPods}`);
  if (!(Number.isInteger(o.podsPerCore) && o.podsPerCore >= 0)) throw new RangeError(`nodeagent option podsPerCore must be an integer of at least 0, got ${o.podsPerCore}`);
  if (o.podsPerCore > o.maxPods) throw new RangeError(`nodeagent option podsPerCore (${o.podsPerCore}) must not be above maxPods (${o.maxPods})`);
  positive('evictionPressureTransitionPeriodMs', o.evictionPressureTransitionPeriodMs);
  if (!(Number.isFinite(o.orchApiQps) && o.orchApiQps >= 0)) throw new RangeError(`nodeagent option orchApiQps must be a number of at least 0, got ${o.orchApiQps}`);
  if (!(Number.isInteger(o.orchApiBurst) && o.orchApiBurst >= 0)) throw new RangeError(`nodeagent option orchApiBurst must be an integer of at least 0, got ${o.orchApiBurst}`);
  if (!(Number.isFinite(o.eventRecordQps) && o.eventRecordQps >= 0)) throw new RangeError(`nodeagent option eventRecordQps must be a number of at least 0, got ${o.eventRecordQps}`);
  if (!(Number.isInteger(o.eventBurst) && o.eventBurst >= 0)) throw new RangeError(`nodeagent option eventBurst must be an integer of at least 0, got ${o.eventBurst}`);
  memoryThreshold(o.evictionHard);
  if (!(o.leaseRenewJitterFactor >= 0 && o.leaseRenewJitterFactor < 1))
    throw new RangeError(`nodeagent option leaseRenewJitterFactor must be in [0, 1), got ${o.leaseRenewJitterFactor}`);
  if (!/^\d+\.\d+\.\d+\.0\/24$/.test(o.podCIDR)) throw new RangeError(`nodeagent option podCIDR must be an IPv4 /24 such as 10.244.0.0/24, got ${o.podCIDR}`);
  for (const t of o.registerWithTaints)
    if (!t.key || !['NoSchedule', 'PreferNoSchedule', 'NoExecute'].includes(t.effect))
      throw new RangeError(`nodeagent option registerWithTaints: taint ${JSON.stringify(t)} needs a key and an effect of NoSchedule, PreferNoSchedule or NoExecute`);
  return o;
}
