// A process of load: `node --import ./sim/cli/register.js tests/helpers/load-client.ts PORT CA_FILE
// CLIENTS ROUNDS PREFIX` runs CLIENTS clients against the API server on 127.0.0.1:PORT, each writing
// a ConfigMap of its own name and reading a list in turn, ROUNDS times, as fast as answers come;
// it prints the answers (name, status, latency, Retry-After) as one JSON line. Tests start several,
// so that the load does not share the server's event loop.
import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:https';

const [port, caFile, clients, rounds, prefix] = process.argv.slice(2);
const agent = new Agent({ keepAlive: true, maxSockets: Number(clients), ca: readFileSync(caFile!, 'utf8') });
const CM = '/api/v1/namespaces/default/configmaps';

interface Answer { name?: string; status: number; ms: number; retryAfter?: string }

function call(method: string, path: string, name?: string): Promise<Answer> {
  const data = name ? JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { k: name } }) : undefined;
  const t = performance.now();
  return new Promise((resolve) => {
    const req = request({ host: '127.0.0.1', port: Number(port), path, method, agent,
      headers: data ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(data) } : {} }, (res) => {
      res.resume();
      res.on('end', () => resolve({ ...(name ? { name } : {}), status: res.statusCode ?? 0, ms: performance.now() - t,
        ...(res.headers['retry-after'] ? { retryAfter: String(res.headers['retry-after']) } : {}) }));
    });
    req.on('error', () => resolve({ ...(name ? { name } : {}), status: 0, ms: performance.now() - t }));
    req.end(data);
  });
}

const answers: Answer[] = [];
await Promise.all(Array.from({ length: Number(clients) }, async (_, c) => {
  for (let i = 0; i < Number(rounds); i++) {
    answers.push(await call('POST', CM, `${prefix}-${c}-${i}`));
    answers.push(await call('GET', `${CM}?limit=50`));
  }
}));
agent.destroy();
process.stdout.write(`${JSON.stringify(answers)}\n`);
