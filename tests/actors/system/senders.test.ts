// Who sent an event: the actor whose step sent it, the component an informer speaks for, or no
// one (an actor's own timers and answers); and the requests an actor's steps and invoked actors send.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { fromPromise, setup } from 'xstate';
import { ActorSystem, type InspectionRecord } from '../../../actors/system/index.ts';
import type { SendRecord } from '../../../actors/system/records.ts';
import { asSender, currentSender, noteRequest } from '../../../actors/system/senders.ts';
import { machineClock } from '../../helpers/machine-clock.ts';

/** A bell that rings when told and goes quiet after a second of its own. */
const bell = setup({ types: { events: {} as { type: 'RING' } | { type: 'HUSH' } } }).createMachine({
  id: 'bell',
  initial: 'Quiet',
  states: {
    Quiet: { on: { RING: 'Ringing' } },
    Ringing: { after: { 1000: 'Quiet' }, on: { HUSH: 'Quiet' } },
  },
});

/** A ringer: told to PRESS, its action rings whatever bell the host wired in, then asks a question of the API server (an invoked actor). */
const ringer = setup({
  types: { events: {} as { type: 'PRESS' } | { type: 'AGAIN' } },
  actions: { ring: () => {} },
  actors: { ask: fromPromise(async () => {}) },
}).createMachine({
  id: 'ringer',
  initial: 'Idle',
  states: {
    Idle: { on: { PRESS: { target: 'Asking', actions: 'ring' } } },
    Asking: { invoke: { src: 'ask', onDone: 'Idle' }, on: { AGAIN: { target: 'Idle', actions: ({ self }) => self.send({ type: 'PRESS' }) } } },
  },
});

function recorded(system: ActorSystem): { records: InspectionRecord[]; sends: SendRecord[] } {
  const records: InspectionRecord[] = [];
  const sends: SendRecord[] = [];
  system.onRecord((r) => records.push(r));
  system.onSend((r) => sends.push(r));
  return { records, sends };
}

const senderOf = (records: InspectionRecord[], id: string, event: string) =>
  records.find((r) => r.kind === 'transition' && r.id === id && r.event === event) as { sender?: string } | undefined;

test('an event sent in another actor\'s step carries that actor as its sender; a timer\'s and one from outside, none', () => {
  const clock = machineClock();
  const system = new ActorSystem(clock);
  const { records } = recorded(system);
  const b = system.host(bell, { id: 'bell/1' }).start();
  const r = system.host(ringer.provide({ actions: { ring: () => b.send({ type: 'RING' }) }, actors: { ask: fromPromise(() => new Promise<void>(() => {})) } }), { id: 'ringer/1' }).start();
  r.send({ type: 'PRESS' });
  assert.is(senderOf(records, 'bell/1', 'RING')?.sender, 'ringer/1');
  assert.is(senderOf(records, 'ringer/1', 'PRESS')?.sender, undefined, 'sent by the test: no sender');
  clock.advance(1_000);
  const quiet = records.find((x) => x.kind === 'transition' && x.id === 'bell/1' && x.event.startsWith('xstate.after.'));
  assert.ok(quiet && !('sender' in quiet), 'its own timer has no sender');
  assert.is(currentSender(), undefined, 'every frame is left');
});

test('work an actor goes on with after a wait runs as that actor when it says so (`as`)', async () => {
  const system = new ActorSystem(machineClock());
  const { records, sends } = recorded(system);
  const b = system.host(bell, { id: 'bell/1' }).start();
  system.host(ringer, { id: 'ringer/1' }).start();
  await Promise.resolve();
  system.as('ringer/1', () => {
    b.send({ type: 'RING' });
    noteRequest('GET', '/api/v1/nodes');
  });
  b.send({ type: 'HUSH' });
  assert.is(senderOf(records, 'bell/1', 'RING')?.sender, 'ringer/1');
  assert.is(senderOf(records, 'bell/1', 'HUSH')?.sender, undefined, 'outside it: no sender');
  assert.equal(sends.map((x) => [x.id, x.event]), [['ringer/1', 'GET /api/v1/nodes']]);
  assert.is(currentSender(), undefined);
});

test('an actor that sends to itself in its own step is no sender of its own event', () => {
  const system = new ActorSystem(machineClock());
  const { records } = recorded(system);
  const r = system.host(ringer.provide({ actors: { ask: fromPromise(() => new Promise<void>(() => {})) } }), { id: 'ringer/1' }).start();
  asSender('apiserver', () => r.send({ type: 'PRESS' }));
  r.send({ type: 'AGAIN' });
  const presses = records.filter((x) => x.kind === 'transition' && x.event === 'PRESS');
  assert.is(presses.length, 2);
  assert.is((presses[0] as { sender?: string }).sender, 'apiserver', 'what an informer handler sends, the API server sent');
  assert.is((presses[1] as { sender?: string }).sender, undefined);
});

test('requests made in an actor\'s step or by the actors it invokes are its sends, told only to send listeners', async () => {
  const system = new ActorSystem(machineClock());
  const { records, sends } = recorded(system);
  let answered!: () => void;
  const r = system.host(ringer.provide({
    actions: { ring: () => noteRequest('POST', '/api/v1/namespaces/default/events') },
    actors: {
      ask: fromPromise(() => {
        noteRequest('GET', '/api/v1/nodes/n1?resourceVersion=0');
        return new Promise<void>((resolve) => (answered = resolve)).then(() => noteRequest('GET', '/api/v1/nodes/n2'));
      }),
    },
  }), { id: 'ringer/1' }).start();
  r.send({ type: 'PRESS' });
  answered();
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(sends.map((s) => [s.id, s.machine, s.target, s.event]), [
    ['ringer/1', 'ringer', 'apiserver', 'POST /api/v1/namespaces/default/events'],
    ['ringer/1', 'ringer', 'apiserver', 'GET /api/v1/nodes/n1'],
  ], 'the request after an await is in no step: not a send');
  assert.ok(records.every((x) => (x.kind as string) !== 'send'), 'sends are not inspection records');
});

test('a request outside any step, or while nobody listens for sends, is not recorded', () => {
  const system = new ActorSystem(machineClock());
  const r = system.host(ringer.provide({ actions: { ring: () => noteRequest('GET', '/api/v1/nodes') } }), { id: 'ringer/1' }).start();
  r.send({ type: 'PRESS' });
  const sends: SendRecord[] = [];
  system.onSend((x) => sends.push(x));
  noteRequest('GET', '/api/v1/nodes');
  assert.equal(sends, []);
});

test('a tracked object moved in an actor\'s step has that actor as the sender', () => {
  const system = new ActorSystem(machineClock());
  const { records } = recorded(system);
  const id = system.track('pod/default/p', 'pod', 'Pending');
  const r = system.host(ringer.provide({ actions: { ring: () => system.move(id, 'BIND', 'Scheduled') }, actors: { ask: fromPromise(() => new Promise<void>(() => {})) } }), { id: 'scheduler/default' }).start();
  r.send({ type: 'PRESS' });
  system.move(id, 'DELETE', 'Gone');
  assert.is(senderOf(records, id, 'BIND')?.sender, 'scheduler/default');
  assert.is(senderOf(records, id, 'DELETE')?.sender, undefined);
});

test.run();
