// Opens a watch through `server.handle()` and collects its events, for in-process tests.
import type { ApiServer } from '../../actors/apiserver/server.ts';

export interface WatchLine {
  type: string;
  object: any;
}

export interface OpenWatch {
  status: number;
  events: WatchLine[];
  ended: boolean;
  /** Lets queued deliveries (microtasks, immediates) run. */
  settle(): Promise<void>;
  /** Waits (bounded) until at least `n` events arrived or the stream ended. */
  until(n: number): Promise<WatchLine[]>;
  /** The client goes away. */
  close(): void;
  /** Pretend the connection's buffer is full: writes answer false until `drain()`. */
  block(): void;
  drain(): void;
}

export async function settle(rounds = 5): Promise<void> {
  for (let i = 0; i < rounds; i++) await new Promise((r) => setImmediate(r));
}

export async function openWatch(server: ApiServer, url: string, headers: Record<string, string> = {}): Promise<OpenWatch> {
  const r = await server.handle({ method: 'GET', url, headers, body: new Uint8Array() });
  const events: WatchLine[] = [];
  let onClose: (() => void) | undefined;
  let onDrain: (() => void) | undefined;
  let blocked = false;
  const w: OpenWatch = {
    status: r.status,
    events,
    ended: false,
    settle: () => settle(),
    async until(n) {
      for (let i = 0; i < 200 && events.length < n && !w.ended; i++) await settle(1);
      return events;
    },
    close: () => onClose?.(),
    block: () => { blocked = true; },
    drain: () => { blocked = false; onDrain?.(); },
  };
  if (!r.stream) {
    events.push({ type: 'HTTP', object: JSON.parse(String(r.body)) });
    w.ended = true;
    return w;
  }
  r.stream({
    write(chunk) {
      for (const line of chunk.split('\n')) if (line) events.push(JSON.parse(line));
      return !blocked;
    },
    onDrain: (fn) => { onDrain = fn; },
    onClose: (fn) => { onClose = fn; },
    end: () => { w.ended = true; },
  });
  await settle();
  return w;
}
