// Each bug the API server fuzzer (fuzz.test.ts) found, as its reproducing request: refused with the
// right code, and nothing written.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { bareServerOptions } from '../../helpers/bare-server.ts';
import type { ApiRequest } from '../../../actors/apiserver/request.ts';
import { ApiServer } from '../../../actors/apiserver/server.ts';
import { wallClock } from '../../../sim/clock.ts';
import { seededRandom } from '../../../sim/random.ts';
import { CT, dumpStore, request, seedFixtures, text, type Fixtures } from '../../helpers/fuzz-fixtures.ts';
import { nested } from '../../helpers/malformed-bodies.ts';

const server = new ApiServer(bareServerOptions({ etcdCompactionIntervalMs: 0 }), { clock: wallClock(), random: seededRandom(7) });
await server.start();
const f: Fixtures = await seedFixtures(server);
const baseline = await dumpStore(server);

interface Finding {
  behaviour: string;
  request: ApiRequest;
  code: number;
  /** Undefined for the real server's unclassified 500, whose Status has no reason. */
  reason: string | undefined;
}

const cm = f.configMap;
const findings: Finding[] = [
  { behaviour: 'a write with an unacceptable Accept answers 406 before writing',
    request: request('PATCH', cm.object, { metadata: { labels: { x: 'y' } } }, { 'content-type': CT.merge, accept: 'text/html' }), code: 406, reason: 'NotAcceptable' },
  { behaviour: 'a DELETE body in an unsupported Content-Type is a 415, not read as JSON',
    request: request('DELETE', cm.object, {}, { 'content-type': 'text/plain' }), code: 415, reason: 'UnsupportedMediaType' },
  { behaviour: 'PUT on a collection is a 405',
    request: request('PUT', cm.collection, cm.stored), code: 405, reason: 'MethodNotAllowed' },
  { behaviour: 'a deletecollection with a malformed watch is a 400, not a delete of everything',
    request: request('DELETE', `${f.pod.collection}?watch=maybe`), code: 400, reason: 'BadRequest' },
  { behaviour: 'a body nested deeper than the server processes is a 400, not a stack overflow',
    request: request('POST', f.revision.collection, `{"metadata":{"name":"deep"},"revision":2,"data":${nested(5_000)}}`), code: 400, reason: 'BadRequest' },
  { behaviour: 'a JSON patch that deepens the object op by op is a 400 before anything walks it',
    request: request('PATCH', f.revision.object, [
      { op: 'add', path: '/data/deep', value: JSON.parse(nested(200)) },
      { op: 'add', path: `/data/deep${'/0'.repeat(200)}`, value: JSON.parse(nested(200)) },
      { op: 'test', path: '/data/deep', value: 1 },
    ], { 'content-type': CT.jsonPatch }), code: 400, reason: 'BadRequest' },
  { behaviour: 'JSON patch copies adding more than 3 MiB are a 422, not an exponential blow-up',
    request: request('PATCH', cm.object, Array.from({ length: 40 }, (_, i) => ({ op: 'copy', from: '/metadata', path: `/metadata/x${i}` })),
      { 'content-type': CT.jsonPatch }), code: 422, reason: 'Invalid' },
  { behaviour: 'an apply body whose YAML alias contains itself is a 400, not an endless loop',
    request: request('PATCH', `${cm.object}?fieldManager=fuzz`, 'a: &x [*x]', { 'content-type': CT.apply }), code: 400, reason: 'BadRequest' },
  { behaviour: 'deep YAML is refused before the YAML composer recurses (its overflow can abort the process)',
    request: request('PATCH', `${cm.object}?fieldManager=fuzz`, `data: ${'['.repeat(3_000)}a${']'.repeat(3_000)}`, { 'content-type': CT.apply }), code: 400, reason: 'BadRequest' },
  { behaviour: 'a YAML mapping used as a key is a 400, as go-yaml refuses it',
    request: request('PATCH', `${cm.object}?fieldManager=fuzz`, '{{}}', { 'content-type': CT.apply }), code: 400, reason: 'BadRequest' },
  { behaviour: 'a strategic patch list item without its merge key is the real server\'s unclassified 500 with its message, not a crash',
    request: request('PATCH', f.pod.object, { spec: { containers: [{ image: 'x' }] } }, { 'content-type': CT.strategic }), code: 500, reason: undefined },
  { behaviour: 'an eviction whose precondition fails is a 409 and deletes nothing',
    request: request('POST', `${f.pod.object}/eviction`, { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: 'p1' },
      deleteOptions: { preconditions: { uid: 'not-the-uid' } } }), code: 409, reason: 'Conflict' },
  { behaviour: 'an eviction of a guarded pod is refused by its budget before its preconditions are read, and charges nothing',
    request: request('POST', `${f.runningPod.object}/eviction`, { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: 'run1' },
      deleteOptions: { preconditions: { uid: 'not-the-uid' } } }), code: 429, reason: 'TooManyRequests' },
  { behaviour: 'an invalid generateName is a 422 even when a name is given',
    request: request('POST', cm.collection, { ...cm.manifest, metadata: { name: 'fresh', generateName: 'Bad_' } }), code: 422, reason: 'Invalid' },
  { behaviour: 'a null list item is its zero value, so a null container is a 422, not a 500',
    request: request('POST', f.pod.collection, { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'fresh' }, spec: { containers: [null] } }), code: 422, reason: 'Invalid' },
  { behaviour: 'a null taint is a 422, not a 500',
    request: request('POST', '/api/v1/nodes', { apiVersion: 'v1', kind: 'Node', metadata: { name: 'fresh' }, spec: { taints: [null] } }), code: 422, reason: 'Invalid' },
  { behaviour: 'a patch that removes metadata leaves no name: the 400 of checkName, not a crash',
    request: request('PATCH', f.node.object, { metadata: null }, { 'content-type': CT.strategic }), code: 400, reason: 'BadRequest' },
];

for (const finding of findings) {
  test(finding.behaviour, async () => {
    const started = performance.now();
    const r = await server.handle(finding.request);
    const status = JSON.parse(text(r.body)) as { kind?: string; reason?: string; code?: number };
    assert.is(r.status, finding.code, text(r.body).slice(0, 300));
    assert.is(status.kind, 'Status');
    assert.is(status.reason, finding.reason);
    assert.is(status.code, r.status);
    assert.ok(performance.now() - started < 2_000, 'answered promptly');
    assert.is(await dumpStore(server), baseline, 'nothing was written');
  });
}

test.after(() => server.stop());
test.run();
