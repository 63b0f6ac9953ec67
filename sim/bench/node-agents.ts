// The node-agent case: one watcher per node, each watching its own node's pods
// (fieldSelector=spec.nodeName=<node>, which the API server maps to the node's pod subject) with
// bookmarks, as node agents' informers do. Each pod event is a real create in a MemoryStore,
// published by the real Fanout, one at a time: the case counts what reaches the watching
// process and its watchers per event, and times each event from the create to its delivery.
import { fieldMatcher, parseFieldTerms } from '../../actors/api/selectors.ts';
import { selectableFields } from '../../actors/api/fields.ts';
import type { KObject } from '../../actors/api/types.ts';
import { MemoryStore } from '../../actors/apiserver/storage/memory.ts';
import { Catalogue } from '../../actors/apiserver/catalogue.ts';
import { Fanout } from '../../actors/apiserver/watch/fanout.ts';
import { watchSubject } from '../../actors/apiserver/watch/subjects.ts';
import type { Bus } from '../../transport/bus.ts';
import { CountingBus } from './counting-bus.ts';
import { MemoryBus } from '../../transport/memory-bus.ts';
import { wallClock } from '../clock.ts';
import { benchPod, KEY_PREFIX, nodeName, podKey, type PodShape } from './events.ts';
import type { NodeAgentCase } from './fanout-report.ts';
import { DeliveryLatch, drive } from './flow.ts';
import { LatencySamples } from './latency.ts';
import { startWatchers } from './watchers.ts';
import { PODS } from '../../actors/api/model/core.ts';

export interface NodeAgentInput {
  path: 'in-process' | 'nats';
  agents: number;
  warmEvents: number;
  timedEvents: number;
  shape: PodShape;
}

const agentPodName = (j: number) => `agent-pod-${String(j).padStart(6, '0')}`;
const agentOf = (name: string) => Number(name.slice('agent-pod-'.length));

/** `pub` is the API server's connection, `sub` the node agents' process's (the same bus in process). */
export async function nodeAgentCase(input: NodeAgentInput, pub: Bus, sub: Bus, latch: DeliveryLatch): Promise<NodeAgentCase> {
  const { agents, warmEvents, timedEvents } = input;
  const total = warmEvents + timedEvents;
  // Pod j is bound to node j mod agents; built before timing, as a client's request body would be.
  const pods: KObject[] = Array.from({ length: total }, (_, j) => benchPod(agentPodName(j), nodeName(j % agents), input.shape));
  const store = new MemoryStore();
  const fanout = new Fanout(store, pub, KEY_PREFIX, new MemoryBus({ clock: wallClock() }), new Catalogue()); // pods only: nothing private
  const counting = new CountingBus(sub);
  const sentAt = new Float64Array(total);
  const samples = new LatencySamples(timedEvents);
  let deliveries = 0;
  const fields = selectableFields('', 'pods');
  const started = await startWatchers(counting, store, {
    count: agents,
    scope: (i) => ({ subject: watchSubject(PODS, { nodeName: nodeName(i) }), filter: fieldMatcher(parseFieldTerms(`spec.nodeName=${nodeName(i)}`), fields) }),
    bookmarks: true,
    onEvent: (i, e) => {
      deliveries++;
      const j = agentOf((e.object as KObject).metadata.name ?? '');
      if (j % agents !== i) return latch.fail(new Error(`the watcher of ${nodeName(i)} received a pod of ${nodeName(j % agents)}`));
      if (j >= warmEvents) samples.add(performance.now() - sentAt[j]);
      latch.hit();
    },
    latch,
  });
  const counted = { deliveries: 0, events: 0, progress: 0 };
  try {
    const { wallMs } = await drive({
      warmEvents, events: timedEvents, batch: 1, perEvent: 1, sentAt, latch,
      publish: (j) => {
        // Count from the first timed event: warm-up events are behind us once it is published.
        if (j === warmEvents) Object.assign(counted, { deliveries, events: counting.events, progress: counting.progress });
        store.create(podKey(pods[j].metadata.name!), pods[j]).catch((e: Error) => latch.fail(e));
      },
      describe: () => `${input.path} node agents`,
    });
    // Let the progress message that trails the last event arrive before counting.
    await pub.flush();
    await sub.flush();
    const [p50Ms, p99Ms] = samples.percentiles(0.5, 0.99);
    const perEvent = (n: number) => n / timedEvents;
    return {
      path: input.path, watchers: agents, events: timedEvents,
      deliveriesPerEvent: perEvent(deliveries - counted.deliveries),
      busMessagesPerEvent: perEvent(counting.events - counted.events),
      progressMessagesPerEvent: perEvent(counting.progress - counted.progress),
      eventsPerSec: (timedEvents * 1000) / wallMs, p50Ms, p99Ms,
    };
  } finally {
    started.stop();
    fanout.close();
  }
}
