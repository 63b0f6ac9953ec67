// Live updates over a WebSocket (`/inspect/ws`): the page says what it shows, and the server sends
// that, at most every 250 ms and only when it changed: the summary for the overview, one actor for
// its page, and the time with either. What changed is told by the record count (any record changes
// counts) and by the actor's own newest record (its context, which can change with no record, is
// sent again every second), so a transition costs nothing here; a run replayed to go back brings a
// new system, which counts as a change.
//
//   page → server   {"watch": "summary"} | {"watch": "actor", "id": "node-health/node-3"} | {"watch": "none"}
//   server → page   {"type": "summary", ...} | {"type": "actor", ...} | {"type": "time", ...} | {"type": "error", "message": "..."}
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import type { ActorSystem } from '../../actors/system/actor-system.ts';
import { InspectError, type Inspector } from './query.ts';
import type { TimeControl } from './timeline.ts';

const BATCH_MS = 250;
/** An actor's context can change with no record (a node's next lease wait): its page is sent again this often regardless. */
const ACTOR_REFRESH_MS = 1_000;
const MAX_MESSAGE_BYTES = 4_096;

type Watch = { watch: 'summary' } | { watch: 'actor'; id: string } | { watch: 'none' };

export class LiveUpdates {
  readonly #wss = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES });
  readonly #inspector: Inspector;
  readonly #system: () => ActorSystem;
  readonly #time: TimeControl;

  constructor(inspector: Inspector, system: () => ActorSystem, time: TimeControl) {
    this.#inspector = inspector;
    this.#system = system;
    this.#time = time;
  }

  /** Takes over an upgrade request the server has already authenticated. */
  upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    this.#wss.handleUpgrade(req, socket, head, (ws) => this.#serve(ws));
  }

  close(): void {
    for (const ws of this.#wss.clients) ws.terminate();
    this.#wss.close();
  }

  #serve(ws: WebSocket): void {
    let watch: Watch = { watch: 'none' };
    /** What was last sent: the system, its record count, the actor's newest record, the time. */
    let sent: { system?: ActorSystem; records?: number; actorSeq?: number | null; atMs?: number; time?: string } = {};
    const send = (message: object) => ws.send(JSON.stringify(message));
    const tick = () => {
      if (ws.readyState !== ws.OPEN) return;
      const system = this.#system();
      const time = JSON.stringify(this.#time.status());
      if (time !== sent.time) {
        send({ type: 'time', ...JSON.parse(time) });
        sent.time = time;
      }
      const fresh = system !== sent.system;
      if (watch.watch === 'summary' && (fresh || system.records !== sent.records)) {
        send({ type: 'summary', ...this.#inspector.summary() });
        sent = { ...sent, system, records: system.records };
      } else if (watch.watch === 'actor') {
        const history = system.history(watch.id);
        const seq = history === undefined ? null : (history[history.length - 1]?.seq ?? -1);
        const now = performance.now();
        if (fresh || seq !== sent.actorSeq || now - (sent.atMs ?? 0) >= ACTOR_REFRESH_MS) {
          try {
            send({ type: 'actor', ...this.#inspector.actor(watch.id) });
          } catch (e) {
            send({ type: 'error', status: e instanceof InspectError ? e.status : 500, message: (e as Error).message });
          }
          sent = { ...sent, system, actorSeq: seq, atMs: now };
        }
      }
    };
    const timer = setInterval(tick, BATCH_MS);
    ws.on('close', () => clearInterval(timer));
    ws.on('message', (data) => {
      const w = parseWatch(String(data));
      if (typeof w === 'string') return send({ type: 'error', status: 400, message: w });
      watch = w;
      sent = { ...(sent.time !== undefined ? { time: sent.time } : {}) };
      tick();
    });
  }
}

function parseWatch(text: string): Watch | string {
  let m: unknown;
  try {
    m = JSON.parse(text);
  } catch {
    return `a message must be JSON, got ${JSON.stringify(text.slice(0, 80))}`;
  }
  const w = m as { watch?: unknown; id?: unknown };
  if (w?.watch === 'summary' || w?.watch === 'none') return { watch: w.watch };
  if (w?.watch === 'actor' && typeof w.id === 'string') return { watch: 'actor', id: w.id };
  return `a message is {"watch": "summary"}, {"watch": "actor", "id": ID} or {"watch": "none"}, got ${JSON.stringify(text.slice(0, 200))}`;
}
