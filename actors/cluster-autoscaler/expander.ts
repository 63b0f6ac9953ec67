// The expanders: how the real autoscaler chooses which node group to grow among those that would
// help (core/scaleup, expander/*). `--expander` lists them in turn; each keeps its best options,
// and when more than one remains a random one (from the autoscaler's seeded stream) is taken.
//   random       no preference
//   most-pods    the option that schedules the most pending pods
//   least-waste  the least idle CPU and memory left on the new nodes (the sum of both fractions)
//   price        the cheapest per pod helped: node count x costPerHour / pods (a simplification
//                of the real price expander's preferred-node pricing); groups without a price
//                are left out unless none has one
//   priority     the options whose group matches the highest priority of the
//                cluster-autoscaler-priority-expander ConfigMap (priorities.ts); groups matching
//                none are left out; a missing or bad ConfigMap, or one matching no option,
//                filters nothing
import type { Random } from '../api/env.ts';
import type { NodeGroup } from './cloud-provider.ts';
import type { ExpanderName } from './options.ts';
import { priorityOf, type Priorities } from './priorities.ts';
import type { PodInfo } from '../scheduler/framework.ts';

/** Growing one group by `nodeCount` nodes, which would schedule `pods`. */
export interface Option {
  group: NodeGroup;
  nodeCount: number;
  pods: PodInfo[];
  /** CPU (millicores) and memory (bytes) the new nodes offer in all. */
  offered: { milliCPU: number; memory: number };
}

/** What the priority expander reads: the ConfigMap's priorities (undefined: missing or bad) and where it tells of groups it does not know. */
export interface PriorityConfig {
  priorities: Priorities | undefined;
  /** Why the ConfigMap there is ignored (told when the expander runs), if it is wrong. */
  invalid?: string;
  /** A Warning Event on the ConfigMap, as the real expander records one. */
  warn(reason: string, message: string): void;
}

type Filter = (options: Option[], priority: PriorityConfig | undefined) => Option[];

/** The options whose score is lowest (a tie keeps them all). */
function lowest(options: Option[], score: (o: Option) => number): Option[] {
  const scores = options.map(score);
  const best = Math.min(...scores);
  return options.filter((_, i) => scores[i] === best);
}

function waste(o: Option): number {
  let cpu = 0;
  let memory = 0;
  for (const p of o.pods) {
    cpu += p.requests.milliCPU;
    memory += p.requests.memory;
  }
  const idle = (offered: number, used: number) => (offered > 0 ? (offered - used) / offered : 0);
  return idle(o.offered.milliCPU, cpu) + idle(o.offered.memory, memory);
}

const FILTERS: Record<ExpanderName, Filter> = {
  random: (options) => options,
  'most-pods': (options) => lowest(options, (o) => -o.pods.length),
  'least-waste': (options) => lowest(options, waste),
  price: (options) => {
    const priced = options.filter((o) => o.group.costPerHour !== undefined);
    if (priced.length === 0) return options;
    return lowest(priced, (o) => (o.nodeCount * o.group.costPerHour!) / o.pods.length);
  },
  priority: (options, config) => {
    if (config?.invalid !== undefined) config.warn('PriorityConfigMapInvalid', config.invalid);
    const priorities = config?.priorities;
    if (!priorities) return options;
    const ranked = options.map((o) => {
      const p = priorityOf(priorities, o.group.id);
      if (p === undefined) config.warn('PriorityConfigMapNotMatchedGroup', `Priority expander: node group ${o.group.id} not found in priority expander configuration. The group won't be used.`);
      return p;
    });
    const top = Math.max(...ranked.map((p) => p ?? -Infinity));
    if (top === -Infinity) {
      config.warn('PriorityConfigMapNoGroupMatched', 'Priority expander: no priorities info found for any of the expansion options. No options filtered.');
      return options;
    }
    return options.filter((_, i) => ranked[i] === top);
  },
};

/** The option the expanders choose, or undefined when there is none. */
export function bestOption(options: readonly Option[], expanders: readonly ExpanderName[], random: Random, priority?: PriorityConfig): Option | undefined {
  let left = [...options];
  for (const name of expanders) {
    if (left.length <= 1) break;
    left = FILTERS[name](left, priority);
  }
  return left.length <= 1 ? left[0] : left[Math.floor(random.next() * left.length)];
}
