// The publishing side of watch: every change the store commits becomes one event, encoded at most once, published
// on its subjects, in revision order; a progress message follows so watchers can bookmark. An event
// the bus refuses (over NATS's max_payload) is reported and dropped, never failing the committed
// write: its watchers see the gap in the scope's chain with the next event and list again.
import type { ResourceType } from '../../api/resources.ts';
import type { Catalogue } from '../catalogue.ts';
import type { Bus } from '../../../transport/bus.ts';
import type { ChangeRecord, Store } from '../storage/store.ts';
import { Chains } from './chains.ts';
import { changeBody, progressBody } from './events.ts';
import { eventSubjects, isPrivate, PROGRESS_SUBJECT, redacted } from './subjects.ts';

/** `/registry/<group|core>/<resource>/...` back to the type its objects are stored as. */
function typeOfKey(key: string, prefix: string, catalogue: Catalogue): ResourceType | undefined {
  const from = prefix.length + 1;
  const slash = key.indexOf('/', from);
  const end = slash < 0 ? -1 : key.indexOf('/', slash + 1);
  if (end < 0) return undefined;
  const group = key.slice(from, slash);
  return catalogue.storedType(group === 'core' ? '' : group, key.slice(slash + 1, end));
}

const reportDropped = (subject: string, e: unknown) =>
  console.error(`watch event on ${subject} dropped, its watchers will list again: ${(e as Error).message}`);

/**
 * Publishes one event on its subjects. In process the bus knows its subscribers: an event nobody
 * receives (a node's lease renewal in a simulation without lease watchers) is not even made.
 */
function publish(bus: Bus, subjects: string[], change: ChangeRecord, type: ResourceType, chain: Record<string, number>): void {
  const to = bus.hasSubscribers ? subjects.filter((s) => bus.hasSubscribers!(s)) : subjects;
  if (to.length === 0) return;
  const data = changeBody(change, type, chain);
  for (const subject of to) {
    try {
      bus.publish(subject, data);
    } catch (e) {
      reportDropped(subject, e);
    }
  }
}

export class Fanout {
  readonly #unsubscribe: () => void;
  readonly chains = new Chains();

  /** `local` carries the events of private kinds (subjects.ts isPrivate) to this process's watchers alone. */
  constructor(store: Store, bus: Bus, keyPrefix: string, local: Bus, catalogue: Catalogue) {
    let progressQueued = false;
    this.#unsubscribe = store.onChange((change) => {
      const type = typeOfKey(change.key, keyPrefix, catalogue);
      if (!type) return;
      const chain = this.chains.link(type, change.object, change.prev, change.revision);
      const subjects = eventSubjects(type, change.object, change.prev);
      if (isPrivate(type)) {
        publish(local, subjects, change, type, chain);
        publish(bus, subjects, redacted(change), type, chain);
      } else publish(bus, subjects, change, type, chain);
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
