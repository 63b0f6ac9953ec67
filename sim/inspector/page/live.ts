// The page's end of the live updates (/inspect/ws): one WebSocket, telling the server what the
// view shows and handing each update to whoever listens for its type; it reconnects after a drop
// and says again what it watches.

type Watch = { watch: 'summary' } | { watch: 'actor'; id: string } | { watch: 'none' };
type Listener = (message: Record<string, unknown>) => void;

const RECONNECT_MS = 1_000;
const listeners = new Map<string, Set<Listener>>();
let socket: WebSocket | undefined;
let watching: Watch = { watch: 'none' };

function connect(): void {
  const ws = new WebSocket(`${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/inspect/ws`);
  socket = ws;
  ws.addEventListener('open', () => ws.send(JSON.stringify(watching)));
  ws.addEventListener('message', (e) => {
    const message = JSON.parse(String(e.data)) as Record<string, unknown>;
    for (const l of listeners.get(String(message.type)) ?? []) l(message);
  });
  ws.addEventListener('close', () => {
    socket = undefined;
    window.setTimeout(connect, RECONNECT_MS);
  });
}

/** Says what the view shows; updates of that kind follow. */
export function watch(w: Watch): void {
  watching = w;
  if (socket?.readyState === WebSocket.OPEN) socket.send(JSON.stringify(w));
}

/** Calls `listener` with each update of `type`; returns the way to stop. */
export function on(type: string, listener: Listener): () => void {
  let set = listeners.get(type);
  if (!set) listeners.set(type, (set = new Set()));
  set.add(listener);
  return () => set.delete(listener);
}

export function startLive(): void {
  connect();
}
