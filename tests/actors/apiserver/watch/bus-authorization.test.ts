// What crosses the bus is authorized like HTTPS: a watcher asking orch.api.changes for a scope's
// backlog is authenticated by the token it carries and authorized as the watch it is (a node for
// its own pods only, under the Node authorizer), and the bus carries Secrets' metadata only, on
// their subjects and in their backlog, though HTTPS watchers of them still see every change whole.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { lookupResource } from '../../../../actors/api/resources.ts';
import type { Status } from '../../../../actors/api/status.ts';
import type { ChangesReply } from '../../../../actors/apiserver/bus-endpoint.ts';
import { ApiClient } from '../../../../actors/client/client.ts';
import { CredentialedBus } from '../../../../actors/client/credentials.ts';
import type { Message } from '../../../../transport/bus.ts';
import { eventOf } from '../../../../actors/apiserver/watch/events.ts';
import { startServer, type Harness } from '../../../helpers/in-process-server.ts';

const SECRETS = lookupResource('', 'v1', 'secrets')!;
const CONFIGMAPS = lookupResource('', 'v1', 'configmaps')!;
const ADMIN = 'admin-token';
const NODE_A = 'node-a-token';
const NOBODY = 'nobody-token';

const test = suite<{ h: Harness }>('bus-authorization');
test.before(async (ctx) => {
  ctx.h = await startServer({ authorizationMode: ['Node', 'RBAC'], tokens: new Map([
    [ADMIN, { username: 'root', groups: ['system:masters', 'system:authenticated'] }],
    [NODE_A, { username: 'system:node:a', groups: ['system:nodes', 'system:authenticated'] }],
    [NOBODY, { username: 'nobody', groups: ['system:authenticated'] }],
  ]) });
});

const client = (h: Harness, token?: string) => new ApiClient(token ? new CredentialedBus(h.server.bus, token) : h.server.bus, 'test', 5_000);
const podsOf = (h: Harness, token: string | undefined, nodeName?: string): Promise<ChangesReply> =>
  client(h, token).changes({ group: '', version: 'v1', resource: 'pods', ...(nodeName !== undefined ? { nodeName } : {}), after: h.revision() });
const refusal = (r: ChangesReply): Status | undefined => ('status' in r ? r.status : undefined);

test('a node reads the backlog of its own pods, and of no other node\'s', async ({ h }) => {
  const own = await podsOf(h, NODE_A, 'a');
  assert.is(refusal(own), undefined, JSON.stringify(own));
  const other = refusal(await podsOf(h, NODE_A, 'b'));
  assert.is(other?.code, 403);
  assert.match(other!.message ?? '', 'User "system:node:a" cannot watch resource "pods"');
  assert.is(refusal(await podsOf(h, NODE_A))?.code, 403, 'every pod is not its pods');
});

test('the backlog is RBAC\'s to grant: nobody in particular is refused, an administrator is not', async ({ h }) => {
  assert.is(refusal(await podsOf(h, NOBODY))?.code, 403);
  assert.is(refusal(await podsOf(h, ADMIN)), undefined);
});

test('no token is anonymous, a token nobody issued is a 401', async ({ h }) => {
  const anonymous = refusal(await podsOf(h, undefined));
  assert.is(anonymous?.code, 403);
  assert.match(anonymous!.message ?? '', 'User "system:anonymous"');
  assert.is(refusal(await podsOf(h, 'forged'))?.code, 401);
});

test('the bus carries Secrets\' metadata only; HTTPS watchers of them still see each change whole', async ({ h }) => {
  const onBus: Message[] = [];
  let configMapPublished: () => void;
  const published = new Promise<void>((done) => (configMapPublished = done));
  // The ConfigMap is written after the Secret, and the bus delivers in publish order.
  const sub = h.server.bus.subscribe('orch.w.>', (m: Message) => {
    onBus.push(m);
    if (m.subject.startsWith('orch.w.core.configmaps.')) configMapPublished();
  });
  const after = h.revision();
  const watch = await h.server.handle({ method: 'GET', url: '/api/v1/namespaces/default/secrets?watch=true', headers: { authorization: `Bearer ${ADMIN}` }, body: new Uint8Array() });
  assert.is(watch.status, 200);
  const seen: string[] = [];
  let delivered: () => void;
  const got = new Promise<void>((done) => (delivered = done));
  watch.stream!({ write: (chunk) => { seen.push(Buffer.from(chunk).toString()); delivered(); return true; }, onDrain: () => {}, onClose: () => {}, end: () => {} });
  const admin = client(h, ADMIN);
  await admin.create(SECRETS, { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'key', namespace: 'default', labels: { app: 'web' },
    annotations: { 'kubectl.kubernetes.io/last-applied-configuration': '{"data":{"k":"c2VjcmV0"}}' } }, data: { k: 'c2VjcmV0' } });
  await admin.create(CONFIGMAPS, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'settings', namespace: 'default' }, data: { a: 'b' } });
  await got;
  await published;
  sub.unsubscribe();
  const secretEvents = onBus.filter((m) => m.subject.startsWith('orch.w.core.secrets.'));
  assert.is(secretEvents.length, 1);
  const onTheBus = JSON.stringify(eventOf(secretEvents[0]!).object);
  assert.not.match(onTheBus, 'c2VjcmV0', 'neither the data nor the annotation that copies it');
  assert.equal(eventOf(secretEvents[0]!).object.metadata.labels, { app: 'web' });
  assert.match(seen.join(''), '"type":"ADDED"');
  assert.match(seen.join(''), '"data":{"k":"c2VjcmV0"}');
  const backlog = await client(h, ADMIN).changes({ group: '', version: 'v1', resource: 'secrets', namespace: 'default', after });
  assert.ok('events' in backlog, JSON.stringify(backlog));
  assert.equal(backlog.events.map((e) => e.object.metadata.name), ['key']);
  assert.not.match(JSON.stringify(backlog.events), 'c2VjcmV0');
});

test.after(({ h }) => h.server.stop());
test.run();
