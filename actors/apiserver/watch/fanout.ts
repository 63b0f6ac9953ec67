// The publishing side of watch: every change the store commits becomes one event, encoded at most once, published
// on its subjects, in revision order; a progress message follows so watchers can bookmark.
import { lookupResource, type ResourceType } from '../../api/resources.ts';
import type { Bus } from '../../../transport/bus.ts';
import type { Store } from '../storage/store.ts';
import { Chains } from './chains.ts';
import { changeBody, progressBody } from './events.ts';
import { eventSubjects, PROGRESS_SUBJECT } from './subjects.ts';

/** `/registry/<group|core>/<resource>/...` back to its resource type. */
function typeOfKey(key: string, prefix: string, cache: Map<string, ResourceType | undefined>): ResourceType | undefined {
  const rest = key.slice(prefix.length + 1);
  const [group, resource] = rest.split('/', 2);
  const k = `${group}/${resource}`;
  if (!cache.has(k)) {
    const g = group === 'core' ? '' : group;
    cache.set(k, ['v1'].map((v) => lookupResource(g, v, resource)).find(Boolean));
  }
  return cache.get(k);
}

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
        for (const subject of subjects) bus.publish(subject, data);
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
