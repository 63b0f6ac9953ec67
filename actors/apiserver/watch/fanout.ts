// The publishing side of watch: every change the store commits becomes one event, encoded at most once, published
// on its subjects, in revision order; a progress message follows so watchers can bookmark. An event
// the bus refuses (over NATS's max_payload) is reported and dropped, never failing the committed
// write: its watchers see the gap in the scope's chain with the next event and list again.
import { lookupResource, type ResourceType } from '../../api/resources.ts';
import type { Bus } from '../../../transport/bus.ts';
import type { Store } from '../storage/store.ts';
import { Chains } from './chains.ts';
import { changeBody, progressBody } from './events.ts';
import { eventSubjects, PROGRESS_SUBJECT } from './subjects.ts';

/** `/registry/<group|core>/<resource>/...` back to its resource type. */
function typeOfKey(key: string, prefix: string, cache: Map<string, ResourceType | undefined>): ResourceType | undefined {
  const from = prefix.length + 1;
  const slash = key.indexOf('/', from);
  const end = slash < 0 ? -1 : key.indexOf('/', slash + 1);
  const k = key.slice(from, end < 0 ? undefined : end); // `<group|core>/<resource>`
  let type = cache.get(k);
  if (type === undefined && !cache.has(k)) {
    const [group, resource] = k.split('/', 2);
    cache.set(k, (type = lookupResource(group === 'core' ? '' : group!, 'v1', resource ?? '')));
  }
  return type;
}

const reportDropped = (subject: string, e: unknown) =>
  console.error(`watch event on ${subject} dropped, its watchers will list again: ${(e as Error).message}`);

export class Fanout {
  readonly #unsubscribe: () => void;
  readonly chains = new Chains();

  constructor(store: Store, bus: Bus, keyPrefix: string) {
    const types = new Map<string, ResourceType | undefined>();
    let progressQueued = false;
    this.#unsubscribe = store.onChange((change) => {
      const type = typeOfKey(change.key, keyPrefix, types);
      if (!type) return;
      const chain = this.chains.link(type, change.object, change.prev, change.revision);
      let subjects = eventSubjects(type, change.object, change.prev);
      // In process the bus knows its subscribers: an event nobody receives (a node's lease renewal
      // in a simulation without lease watchers) is not even made.
      if (bus.hasSubscribers) subjects = subjects.filter((s) => bus.hasSubscribers!(s));
      if (subjects.length > 0) {
        const data = changeBody(change, type, chain);
        for (const subject of subjects) {
          try {
            bus.publish(subject, data);
          } catch (e) {
            reportDropped(subject, e);
          }
        }
      }
      // One progress message per burst of commits, after them in publish order.
      if (!progressQueued) {
        progressQueued = true;
        queueMicrotask(() => {
          progressQueued = false;
          bus.publish(PROGRESS_SUBJECT, progressBody(store.revision));
        });
      }
    });
  }

  close(): void {
    this.#unsubscribe();
  }
}
