// A child process serving HTTPS on a random loopback port, so that the server has a core of its
// own and the benchmark's client the other. Two kinds:
//   orchsim CERT_DIR SEED   the real API server behind the real serveHttps
//   baseline CERT_DIR       a bare node:https server replaying canned answers (sent over IPC)
// It reports { port } over IPC and exits when the parent disconnects.
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { servingCert } from '../actors/apiserver/certs.ts';
import { serveHttps } from '../actors/apiserver/https.ts';
import { apiServerOptions } from '../actors/apiserver/options.ts';
import { ApiServer } from '../actors/apiserver/server.ts';
import { wallClock } from '../sim/clock.ts';
import { seededRandom } from '../sim/random.ts';

export interface CannedResponse {
  method: string;
  /** The request path without its query. */
  path: string;
  status: number;
  headers: Record<string, string | string[]>;
  body: Uint8Array;
}

/** serveHttps's keep-alive timeout, so both servers treat idle connections alike. */
const KEEP_ALIVE_TIMEOUT_MS = 65_000;

async function serveOrchsim(certDir: string, seed: number): Promise<number> {
  const options = apiServerOptions({ certDir, bindAddress: '127.0.0.1' });
  const clock = wallClock();
  const server = new ApiServer(options, { clock, random: seededRandom(seed) });
  await server.start();
  const { cert, key } = await servingCert(options, clock);
  const listening = await serveHttps((r) => server.handle(r), { host: '127.0.0.1', port: 0, cert, key, maxRequestBodyBytes: options.maxRequestBodyBytes });
  return listening.port;
}

/** As fast as node:https answers: read the body, write the canned status, headers and bytes. */
async function serveBaseline(certDir: string, canned: CannedResponse[]): Promise<number> {
  const { cert, key } = await servingCert({ certDir }, wallClock());
  const routes = new Map(canned.map((c) => [`${c.method} ${c.path}`, { ...c, body: Buffer.from(c.body) }]));
  const server = createServer({ cert, key }, (req, res) => {
    req.resume();
    req.on('end', () => {
      const url = req.url ?? '/';
      const q = url.indexOf('?');
      const answer = routes.get(`${req.method} ${q >= 0 ? url.slice(0, q) : url}`);
      if (!answer) {
        res.statusCode = 404;
        res.end();
        return;
      }
      res.statusCode = answer.status;
      for (const [k, v] of Object.entries(answer.headers)) res.setHeader(k, v);
      res.end(answer.body);
    });
  });
  server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

function nextMessage<T>(): Promise<T> {
  return new Promise((resolve) => process.once('message', (m) => resolve(m as T)));
}

async function main() {
  const [kind, certDir, seed] = process.argv.slice(2);
  if (!process.send) throw new Error('https-target.ts runs as a child of bench/loopback.ts (it reports its port over IPC)');
  process.on('disconnect', () => process.exit(0));
  const port = kind === 'orchsim' ? await serveOrchsim(certDir, Number(seed))
    : kind === 'baseline' ? await serveBaseline(certDir, await nextMessage<CannedResponse[]>())
    : undefined;
  if (port === undefined) throw new Error(`unknown target ${JSON.stringify(kind)}: use orchsim or baseline`);
  process.send({ port });
}

await main();
