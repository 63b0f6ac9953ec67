// The orchsim side of a fan-out case: real Watchers behind one WatchHub (one bus subscription per
// distinct subject per process, each message decoded once), each with its selector and bounded
// queue, delivering into a sink that counts (and, for a few, times) what it receives.
import type { Matcher } from '../../actors/api/selectors.ts';
import type { Store } from '../../actors/apiserver/storage/store.ts';
import { WatchHub } from '../../actors/apiserver/watch/hub.ts';
import { Watcher, type WatchEvent } from '../../actors/apiserver/watch/watcher.ts';
import type { Bus } from '../../transport/bus.ts';
import { wallClock } from '../clock.ts';
import type { DeliveryLatch } from './flow.ts';
import { KEY_PREFIX, NAMESPACE } from './events.ts';
import { collectionKey } from '../../actors/apiserver/registry/keys.ts';
import { PODS } from '../../actors/api/model/core.ts';

/** Events a watcher may queue before it is cut off; the bench's sinks never push back. */
const WATCHER_CAPACITY = 1024;
/** Long enough that no bookmark is due during a case; bookmarks still subscribe to progress. */
const BOOKMARK_INTERVAL_MS = 60_000;

export interface WatcherPlan {
  count: number;
  /** The subject and selector of watcher `i`. */
  scope(i: number): { subject: string; filter?: Matcher };
  /** Watchers of a node ask for bookmarks, as node agents' informers do. */
  bookmarks: boolean;
  /** Called for each event watcher `i` receives. */
  onEvent(i: number, e: WatchEvent): void;
  latch: DeliveryLatch;
}

export interface StartedWatchers {
  hub: WatchHub;
  stop(): void;
}

/** Starts the watchers from the store's current revision; resolves once every subscription is live. */
export async function startWatchers(bus: Bus, store: Store, plan: WatcherPlan): Promise<StartedWatchers> {
  const hub = new WatchHub(bus);
  const clock = wallClock();
  const watchers: Watcher[] = [];
  for (let i = 0; i < plan.count; i++) {
    const { subject, filter } = plan.scope(i);
    const watcher = new Watcher({
      subject,
      keyPrefix: collectionKey(KEY_PREFIX, PODS, NAMESPACE),
      ...(filter ? { filter } : {}),
      start: { from: 'after', revision: store.revision },
      bookmarks: plan.bookmarks,
      bookmarkIntervalMs: BOOKMARK_INTERVAL_MS,
      capacity: WATCHER_CAPACITY,
    }, { hub, store, clock }, {
      send: (e) => {
        plan.onEvent(i, e);
        return true;
      },
      onResume: () => {},
      end: () => plan.latch.fail(new Error(`watcher ${i} was cut off: it fell ${WATCHER_CAPACITY} events behind`)),
    });
    watchers.push(watcher);
  }
  await Promise.all(watchers.map((w) => w.start()));
  return {
    hub,
    stop: () => {
      for (const w of watchers) w.stop();
    },
  };
}
