// `--inspect=stately --inspect-actors GLOBS`: the few chosen actors in the Stately inspector users
// know. Their XState inspection events go through `@statelyai/inspect`'s WebSocket inspector to a
// relay of ours on 127.0.0.1 (a token in every address), which serves a small page framing the
// Stately inspector (https://stately.ai/inspect: the one address off the machine, which the user
// asked for) and hands it every event, those sent before the page opened included.
import { createServer, type IncomingMessage } from 'node:http';
import { createWebSocketInspector } from '@statelyai/inspect';
import { WebSocketServer, type WebSocket } from 'ws';
import type { Inspect } from '../../actors/system/actor-system.ts';
import { listenLoopback, newToken, refusal } from './access.ts';

export const STATELY_INSPECTOR_URL = 'https://stately.ai/inspect';
/** Events kept for a page that opens late. */
const KEPT = 5_000;

/** `node/node-3,leader/*` → whether an actor id is chosen (`*` any text, `?` one character). A bad list throws, naming it. */
export function actorGlobs(globs: readonly string[]): (id: string) => boolean {
  if (globs.length === 0 || globs.some((g) => g.trim() === '')) {
    throw new Error('--inspect-actors names the actors to inspect as globs over their ids, such as node/node-3,leader/*; none given');
  }
  const patterns = globs.map((g) => new RegExp(`^${g.trim().replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.')}$`));
  return (id) => patterns.some((p) => p.test(id));
}

export interface StatelyBridge {
  /** The relay's page, token included: open it to see the chosen actors. */
  readonly url: string;
  /** The observer for the chosen actors' `inspect` option. */
  readonly inspect: Inspect;
  close(): Promise<void>;
}

function pageHtml(token: string, port: number): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>orchsim: Stately inspector</title>
<style>html, body { margin: 0; height: 100%; } iframe { border: 0; width: 100%; height: 100%; }</style></head>
<body><iframe id="stately" src="${STATELY_INSPECTOR_URL}"></iframe>
<script>
  // Events wait until the Stately inspector in the frame says it is ready, then go to it in order.
  const frame = document.getElementById('stately');
  const waiting = [];
  let ready = false;
  window.addEventListener('message', (e) => {
    if (e.source === frame.contentWindow && e.data && e.data.type === '@statelyai.connected') {
      ready = true;
      for (const event of waiting.splice(0)) frame.contentWindow.postMessage(event, '*');
    }
  });
  const relay = new WebSocket('ws://127.0.0.1:${port}/relay?token=${token}');
  relay.onmessage = (m) => {
    const event = JSON.parse(m.data);
    if (ready) frame.contentWindow.postMessage(event, '*');
    else waiting.push(event);
  };
</script></body></html>`;
}

/** Starts the relay on 127.0.0.1:`port` (0: a free port) and the Stately WebSocket inspector that feeds it. */
export async function startStatelyBridge(port = 0): Promise<StatelyBridge> {
  const token = newToken();
  const allowed = (req: IncomingMessage) => refusal(req, new URL(req.url ?? '/', 'http://127.0.0.1'), token, bound) === undefined;
  let bound = port;
  const server = createServer((req, res) => {
    if (!allowed(req)) return void res.writeHead(401, { 'Content-Type': 'application/json' }).end(JSON.stringify({ message: 'open the address printed at start: it carries the token' }));
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' }).end(pageHtml(token, bound));
  });
  const relay = new WebSocketServer({ server, verifyClient: ({ req }: { req: IncomingMessage }) => allowed(req) });
  const kept: string[] = [];
  /** The process's own inspector connects first, with `source=process`; pages are the others. */
  const pages = new Set<WebSocket>();
  relay.on('connection', (ws, req) => {
    if (new URL(req.url ?? '/', 'http://127.0.0.1').searchParams.get('source') === 'process') {
      ws.on('message', (data) => {
        const text = String(data);
        kept.push(text);
        if (kept.length > KEPT) kept.shift();
        for (const page of pages) if (page.readyState === page.OPEN) page.send(text);
      });
      return;
    }
    pages.add(ws);
    for (const text of kept) ws.send(text);
    ws.on('close', () => pages.delete(ws));
  });
  bound = await listenLoopback(server, port, 'the Stately inspector\'s relay');
  const inspector = createWebSocketInspector({ url: `ws://127.0.0.1:${bound}/relay?token=${token}&source=process` });
  return {
    url: `http://127.0.0.1:${bound}/?token=${token}`,
    inspect: inspector.inspect as Inspect,
    close: () => new Promise((resolve) => {
      inspector.stop();
      for (const ws of relay.clients) ws.terminate();
      relay.close();
      server.close(() => resolve());
      server.closeAllConnections();
    }),
  };
}

/** `--inspect` and `--inspect-actors` as a command line gives them: undefined when not asked for; a bad pair is an Error naming the fix. */
export function statelyRequest(inspect: string | undefined, actors: readonly string[]): ((id: string) => boolean) | undefined {
  if (inspect === undefined) {
    if (actors.length > 0) throw new Error('--inspect-actors chooses the actors --inspect=stately shows: give --inspect=stately too');
    return undefined;
  }
  if (inspect !== 'stately') throw new Error(`--inspect takes "stately" (the Stately inspector, for the actors --inspect-actors names), got ${JSON.stringify(inspect)}`);
  return actorGlobs(actors);
}
