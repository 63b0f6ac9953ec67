// API server throughput for create, get, update and list of ~1.5 KB pods, two ways in one run:
// in process through ApiServer.handle, and over HTTPS on loopback with a keep-alive client and
// several requests in flight. Each is set against a baseline answering the same response bytes
// as fast as it can, measured the same way: a function returning the captured answer in process,
// a bare node:https server (same certificate) replaying it over HTTPS.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ApiResponse } from '../actors/apiserver/handlers/response.ts';
import { servingCert } from '../actors/apiserver/certs.ts';
import { apiServerOptions } from '../actors/apiserver/options.ts';
import type { ApiRequest } from '../actors/apiserver/request.ts';
import { ApiServer } from '../actors/apiserver/server.ts';
import { wallClock } from '../sim/clock.ts';
import { seededRandom } from '../sim/random.ts';
import { EXPECTED_STATUS, expectStatus, LISTED_PODS, OPS, prepareRequests, type Call, type Op } from './api-requests.ts';
import type { CannedResponse } from './https-target.ts';
import { canned, loopbackClient, startTarget } from './loopback.ts';
import { measure, type MeasureOptions } from './measure.ts';
import { row, type Row, type SuiteResult } from './report.ts';

/** Requests in flight at once over HTTPS: enough to keep the server busy while the client parses. */
const IN_FLIGHT = 8;
const IN_PROCESS: MeasureOptions = { timeMs: 1000, warmupMs: 200 };
const OVER_HTTPS: MeasureOptions = { timeMs: 1500, warmupMs: 300, inFlight: IN_FLIGHT };

const label = (op: Op) => (op === 'list' ? `list ${LISTED_PODS}` : op);

async function timeOp(call: Call, next: () => ApiRequest, op: Op, o: MeasureOptions) {
  return measure(() => expectStatus(call, next(), EXPECTED_STATUS[op]), o);
}

async function inProcessRows(seed: number, certDir: string): Promise<Row[]> {
  const server = new ApiServer(apiServerOptions({ certDir }), { clock: wallClock(), random: seededRandom(seed) });
  await server.start();
  const handle: Call<ApiResponse> = (req) => server.handle(req);
  const next = await prepareRequests(handle);
  const rows: Row[] = [];
  for (const op of OPS) {
    const answer = await expectStatus(handle, next[op](), EXPECTED_STATUS[op]);
    const measured = await timeOp(handle, next[op], op, IN_PROCESS);
    // The request is still built per call, as the server's measurement builds it.
    const baseline = await timeOp(async () => answer, next[op], op, IN_PROCESS);
    rows.push(row(`in-process ${label(op)}`, measured, baseline));
  }
  server.stop();
  return rows;
}

async function httpsRows(seed: number, certDir: string, ca: string): Promise<Row[]> {
  const orchsim = await startTarget('orchsim', certDir, seed);
  const client = loopbackClient(orchsim.url, ca, IN_FLIGHT);
  const next = await prepareRequests(client.call);
  const answers: CannedResponse[] = [];
  for (const op of OPS) {
    const req = next[op]();
    answers.push(canned(req, await expectStatus(client.call, req, EXPECTED_STATUS[op])));
  }
  const bare = await startTarget('baseline', certDir, seed, answers);
  const bareClient = loopbackClient(bare.url, ca, IN_FLIGHT);
  const rows: Row[] = [];
  try {
    for (const op of OPS) {
      const measured = await timeOp(client.call, next[op], op, OVER_HTTPS);
      const baseline = await timeOp(bareClient.call, next[op], op, OVER_HTTPS);
      rows.push(row(`https ${label(op)}`, measured, baseline));
    }
  } finally {
    client.close();
    bareClient.close();
    await Promise.all([orchsim.stop(), bare.stop()]);
  }
  return rows;
}

export async function apiSuite(seed: number): Promise<SuiteResult> {
  const dir = mkdtempSync(join(tmpdir(), 'orchsim-bench-'));
  const certDir = join(dir, 'certs');
  try {
    // Generated once here; both HTTPS children read the same files.
    const { cert } = await servingCert({ certDir }, wallClock());
    const rows = [...(await inProcessRows(seed, certDir)), ...(await httpsRows(seed, certDir, cert))];
    return {
      suite: 'api',
      seed,
      notes: [
        'create: POST of a ~1.5 KB pod with a unique name to the default namespace; get: GET of one pod; update: PUT of that pod with a new label and no resourceVersion; list: GET of a namespace of 50 pods',
        'in-process: awaited ApiServer.handle calls one at a time; baseline: an async function returning the answer captured from handle for the same request (the request is still built per call)',
        `https: a node:https keep-alive Agent with ${IN_FLIGHT} requests in flight, from this process to a server in a child process; baseline: a bare node:https server with the same certificate replaying the status, headers and body captured from the real server for that request`,
        'ops/s: completed calls over wall time; p50/p99: per-call latency in ms (over HTTPS it includes queueing behind the other requests in flight)',
      ],
      rows,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
