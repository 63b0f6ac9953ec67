import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { fromPromise, setup } from 'xstate';
import { ActorSystem, stateName, type InspectionRecord } from '../../../actors/system/index.ts';
import { machineClock } from '../../helpers/machine-clock.ts';

const lamp = setup({ types: { events: {} as { type: 'ON' } | { type: 'OFF' } | { type: 'POKE' } | { type: 'BREAK' } } }).createMachine({
  id: 'lamp',
  initial: 'Off',
  states: {
    Off: { on: { ON: 'On', POKE: { actions: () => {} } } },
    On: {
      initial: 'Warm',
      states: { Warm: { id: 'lamp.On.Warm', after: { 1000: 'Bright' } }, Bright: {} },
      on: { OFF: 'Off', ON: { target: 'On', reenter: true } },
    },
    Broken: { type: 'final' },
  },
  on: { BREAK: '.Broken' },
});

function recorded(system: ActorSystem): string[] {
  const lines: string[] = [];
  system.onRecord((r: InspectionRecord) => lines.push(JSON.stringify(r)));
  return lines;
}

test('a hosted actor leaves a start, a record per transition with a target, and a stop, on the system clock', () => {
  const clock = machineClock(5_000);
  const system = new ActorSystem(clock);
  const lines = recorded(system);
  const lamp1 = system.host(lamp, { id: 'lamp/1' }).start();
  lamp1.send({ type: 'POKE' }); // an action-only transition: not a record
  lamp1.send({ type: 'ON' });
  clock.advance(1_000);
  lamp1.send({ type: 'ON' }); // a reentry is a transition
  lamp1.send({ type: 'BREAK' });
  assert.equal(lines, [
    '{"t":0,"seq":0,"kind":"actor","id":"lamp/1","machine":"lamp","to":"Off"}',
    '{"t":0,"seq":1,"kind":"transition","id":"lamp/1","machine":"lamp","event":"ON","from":"Off","to":"On.Warm"}',
    '{"t":1000,"seq":2,"kind":"transition","id":"lamp/1","machine":"lamp","event":"xstate.after.1000.lamp.On.Warm","from":"On.Warm","to":"On.Bright"}',
    '{"t":1000,"seq":3,"kind":"transition","id":"lamp/1","machine":"lamp","event":"ON","from":"On.Bright","to":"On.Warm"}',
    '{"t":1000,"seq":4,"kind":"transition","id":"lamp/1","machine":"lamp","event":"BREAK","from":"On.Warm","to":"Broken"}',
    '{"t":1000,"seq":5,"kind":"stop","id":"lamp/1","machine":"lamp"}',
  ]);
  assert.is(system.get('lamp/1'), undefined);
});

test('an event that leaves the actor in the state it found it is no record, though it re-entered it', () => {
  const clock = machineClock();
  const system = new ActorSystem(clock);
  const lines = recorded(system);
  const lamp1 = system.host(lamp, { id: 'lamp/1' }).start();
  lamp1.send({ type: 'ON' });
  lamp1.send({ type: 'ON' }); // On.Warm → On.Warm: the timer starts over, nothing to record
  clock.advance(999);
  assert.is(system.get('lamp/1')!.state, 'On.Warm');
  clock.advance(1);
  assert.equal(lines.map((l) => JSON.parse(l).to ?? JSON.parse(l).kind), ['Off', 'On.Warm', 'On.Bright']);
  assert.is(JSON.parse(lines[2]!).t, 1_000, 'the reentry restarted the delay');
});

test('counts per machine and state follow the actors; stopping one records its stop', () => {
  const system = new ActorSystem(machineClock());
  const a = system.host(lamp, { id: 'lamp/a' }).start();
  system.host(lamp, { id: 'lamp/b' }).start();
  a.send({ type: 'ON' });
  assert.equal([...system.counts().get('lamp')!], [['Off', 1], ['On.Warm', 1]]);
  a.stop();
  assert.equal([...system.counts().get('lamp')!], [['Off', 1]]);
  assert.equal([...system.actors()].map((x) => x.id), ['lamp/b']);
  assert.equal(system.recent().map((r) => r.kind), ['actor', 'actor', 'transition', 'stop']);
});

test('a live id asked for again gets a suffix; once it stops the plain id is free again', () => {
  const system = new ActorSystem(machineClock());
  const first = system.host(lamp, { id: 'lamp/x' }).start();
  const second = system.host(lamp, { id: 'lamp/x' }).start();
  assert.is(second.id, 'lamp/x#2');
  first.stop();
  assert.is(system.host(lamp, { id: 'lamp/x' }).id, 'lamp/x');
});

test('a hibernating actor keeps its state and leaves no records until woken and ended', () => {
  const clock = machineClock();
  const system = new ActorSystem(clock);
  const lines = recorded(system);
  const actor = system.host(lamp, { id: 'lamp/h' }).start();
  actor.send({ type: 'ON' });
  const { value, context } = actor.getSnapshot();
  system.hibernate(actor);
  assert.equal(system.get('lamp/h'), { id: 'lamp/h', machine: 'lamp', state: 'On.Warm', serial: 0 });
  const woken = system.wake(lamp, 'lamp/h', { snapshot: lamp.resolveState({ value, context }) }).start();
  woken.send({ type: 'OFF' });
  system.hibernate(woken);
  system.end('lamp/h');
  assert.equal(lines.map((l) => JSON.parse(l).kind), ['actor', 'transition', 'transition', 'stop']);
  assert.is(JSON.parse(lines[2]!).from, 'On.Warm');
});

test('invoked children are not recorded; their done events are', async () => {
  const fetcher = setup({ actors: { load: fromPromise(async () => 7) } }).createMachine({
    id: 'fetcher', initial: 'Loading',
    states: { Loading: { invoke: { id: 'load', src: 'load', onDone: 'Done' } }, Done: {} },
  });
  const system = new ActorSystem(machineClock());
  const lines = recorded(system);
  system.host(fetcher, { id: 'fetcher/1' }).start();
  await new Promise((r) => setImmediate(r));
  assert.equal(lines.map((l) => JSON.parse(l)).map((r) => `${r.kind} ${r.id} ${r.event ?? ''}`), [
    'actor fetcher/1 ', 'transition fetcher/1 xstate.done.actor.load',
  ]);
});

test('tracked objects are recorded without a live actor', () => {
  const clock = machineClock();
  const system = new ActorSystem(clock);
  const lines = recorded(system);
  const id = system.track('object/pods/ns/a', 'object', 'Live');
  system.move(id, 'DELETE', 'Terminating');
  clock.advance(30_000);
  system.move(id, 'DELETE', 'Removed');
  system.untrack(id);
  assert.equal(lines.map((l) => JSON.parse(l)).map((r) => `${r.t} ${r.kind} ${r.from ?? ''}>${r.to ?? ''}`), [
    '0 actor >Live', '0 transition Live>Terminating', '30000 transition Terminating>Removed', '30000 stop >',
  ]);
});

test('state values read as dotted paths, parallel regions in braces', () => {
  assert.is(stateName('Idle'), 'Idle');
  assert.is(stateName({ Running: 'Idle' }), 'Running.Idle');
  assert.is(stateName({ Running: { lease: 'Waiting', status: { Checking: {} } } }), 'Running.{lease.Waiting,status.Checking}');
});

test('with recordsPerActor, each actor keeps its newest records; the snapshot is the live actor\'s; serials follow the order of adding', () => {
  const clock = machineClock();
  const system = new ActorSystem(clock, { recordsPerActor: 2 });
  const a = system.host(lamp, { id: 'lamp/a' }).start();
  const b = system.host(lamp, { id: 'lamp/b' }).start();
  a.send({ type: 'ON' });
  a.send({ type: 'OFF' });
  assert.equal(system.history('lamp/a')!.map((r) => (r.kind === 'transition' ? `${r.event} → ${r.to}` : r.kind)), ['ON → On.Warm', 'OFF → Off']);
  assert.equal(system.history('lamp/b')!.map((r) => r.kind), ['actor']);
  assert.is(system.snapshot('lamp/a'), a.getSnapshot());
  assert.equal([...system.actors()].map((x) => [x.id, x.serial]), [['lamp/a', 0], ['lamp/b', 1]]);
  b.send({ type: 'BREAK' });
  assert.is(system.history('lamp/b'), undefined, 'a stopped actor keeps nothing');
  assert.is(system.snapshot('lamp/b'), undefined);
  const quiet = new ActorSystem(clock);
  quiet.host(lamp, { id: 'lamp/c' }).start().send({ type: 'ON' });
  assert.equal(quiet.history('lamp/c'), [], 'kept only when asked for');
  assert.throws(() => new ActorSystem(clock, { recordsPerActor: -1 }), /recordsPerActor/);
});

test.run();
