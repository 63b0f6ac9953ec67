// Multi-process mode's NATS permissions for scrapes: a node agent's user may hear the metrics
// server's requests for its own summary and answer them, and may not hear another node's.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { summarySubject } from '../../actors/nodeagent/summary.ts';
import { inboxPrefix, natsServerConfig, natsUser, permissionsOf, type Component } from '../../sim/nats-permissions.ts';
import { NatsBus } from '../../transport/nats-bus.ts';
import { payload, valueOf } from '../../transport/payload.ts';
import type { BusPermissionError } from '../../transport/bus.ts';
import { startNatsServer } from '../helpers/nats-server.ts';

test('a node\'s NATS user answers scrapes of its own summary and cannot hear another node\'s', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'orchsim-nats-perm-'));
  const components: Component[] = [{ kind: 'apiserver' }, { kind: 'node', name: 'n1' }];
  const users = components.map((c) => ({ user: natsUser(c), password: `pw-${natsUser(c)}`, permissions: permissionsOf(c) }));
  writeFileSync(join(dir, 'nats-server.conf'), natsServerConfig(users));
  const nats = await startNatsServer({ config: join(dir, 'nats-server.conf') });
  const refused: BusPermissionError[] = [];
  const connect = (user: string) => NatsBus.connect({ servers: nats.url, user, pass: `pw-${user}`, inboxPrefix: inboxPrefix(user), onPermissionError: (e) => refused.push(e) });
  const server = await connect('apiserver');
  const node = await connect('node-n1');
  try {
    node.subscribe(summarySubject('n1'), (msg) => node.publish(msg.reply!, payload({ node: 'n1', asked: valueOf<{ atMs: number }>(msg).atMs })));
    node.subscribe(summarySubject('n2'), () => assert.unreachable('another node\'s scrape reached n1'));
    await node.flush();
    const answer = await server.request(summarySubject('n1'), payload({ atMs: 15_000 }), 5000);
    assert.equal(valueOf(answer), { node: 'n1', asked: 15_000 });
    await server.request(summarySubject('n2'), payload({ atMs: 15_000 }), 500).then(() => assert.unreachable('n2 answered'), () => undefined);
    assert.ok(refused.some((e) => e.message.includes(summarySubject('n2'))), refused.map((e) => e.message).join('; '));
  } finally {
    await node.close();
    await server.close();
    await nats.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
