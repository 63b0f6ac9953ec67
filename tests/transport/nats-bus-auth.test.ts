// The NATS bus against a server that authorizes: a user and password open it, their absence or a
// wrong password is refused with a message saying so, replies come to the inbox prefix given, and
// what the server's permissions refuse is told (a refused request rejects; every other refusal
// reaches onPermissionError exactly once), never dropped in silence.
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { BusAuthorizationError, BusPermissionError } from '../../transport/bus.ts';
import { NatsBus } from '../../transport/nats-bus.ts';
import { startNatsServer, type NatsServer } from '../helpers/nats-server.ts';

const CONFIG = `authorization {
  users = [
    { user: "server", password: "server-secret", permissions: { publish: ">", subscribe: ">" } }
    { user: "client", password: "client-secret", permissions: {
      publish: { allow: ["svc.ask"] }
      subscribe: { allow: ["svc.news", "_INBOX_client.>"] }
    } }
  ]
}
`;

let nats: NatsServer;
const buses: NatsBus[] = [];

test.before(async () => {
  const dir = await mkdtemp(join(tmpdir(), 'orchsim-nats-auth-'));
  await writeFile(join(dir, 'nats.conf'), CONFIG);
  nats = await startNatsServer({ config: join(dir, 'nats.conf') });
});

test.after(async () => {
  for (const b of buses) await b.close();
  await nats.stop();
});

/** A bus whose refusals are collected, and a latch on the next one. */
async function open(user: string, pass: string) {
  const refused: BusPermissionError[] = [];
  let next: (e: BusPermissionError) => void = () => {};
  const bus = await NatsBus.connect({ servers: nats.url, user, pass, inboxPrefix: `_INBOX_${user}`, onPermissionError: (e) => (refused.push(e), next(e)) });
  buses.push(bus);
  const nextRefusal = () => new Promise<BusPermissionError>((resolve, reject) => {
    next = resolve;
    setTimeout(() => reject(new Error('no refusal reported within 5 s')), 5_000).unref();
  });
  return { bus, refused, nextRefusal };
}

test('a connection without credentials, or with a wrong password, is refused by name', async () => {
  const anonymous = await NatsBus.connect({ servers: nats.url }).then(() => undefined, (e: unknown) => e);
  assert.instance(anonymous, BusAuthorizationError);
  assert.match((anonymous as Error).message, /refused a connection without credentials/);
  const wrong = await NatsBus.connect({ servers: nats.url, user: 'client', pass: 'guess' }).then(() => undefined, (e: unknown) => e);
  assert.instance(wrong, BusAuthorizationError);
  assert.match((wrong as Error).message, /refused user "client"/);
});

test('a request is answered on the inbox prefix given', async () => {
  const server = await open('server', 'server-secret');
  const client = await open('client', 'client-secret');
  let replyTo = '';
  server.bus.subscribe('svc.ask', (m) => {
    replyTo = m.reply!;
    server.bus.publish(m.reply!, new TextEncoder().encode('yes'));
  });
  await server.bus.flush();
  const answer = await client.bus.request('svc.ask', new Uint8Array(), 5_000);
  assert.is(new TextDecoder().decode(answer.data), 'yes');
  assert.ok(replyTo.startsWith('_INBOX_client.'), replyTo);
});

test('a refused subscription is reported once; a refused request rejects and is not reported again', async () => {
  const client = await open('client', 'client-secret');
  const reported = client.nextRefusal();
  client.bus.subscribe('svc.secret', () => assert.unreachable('a refused subscription delivers nothing'));
  const refusal = await reported;
  assert.equal([refusal.operation, refusal.subject, refusal.user], ['subscribe', 'svc.secret', 'client']);
  assert.match(refusal.message, /does not let user "client" subscribe to svc\.secret/);

  const rejected = await client.bus.request('svc.other', new Uint8Array(), 5_000).then(() => undefined, (e: unknown) => e);
  assert.instance(rejected, BusPermissionError);
  assert.equal([(rejected as BusPermissionError).operation, (rejected as BusPermissionError).subject], ['publish', 'svc.other']);

  // A plain publish has no caller to reject: the refusal reaches onPermissionError; the request's did not.
  const published = client.nextRefusal();
  client.bus.publish('svc.news', new Uint8Array());
  const publish = await published;
  assert.equal([publish.operation, publish.subject], ['publish', 'svc.news']);
  assert.equal(client.refused.map((e) => `${e.operation} ${e.subject}`), ['subscribe svc.secret', 'publish svc.news']);
});

test.run();
