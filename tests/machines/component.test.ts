// The component lifecycle: start, the work loop's Idle and Busy, stop; a failed start stops cleanly.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createActor } from 'xstate';
import { componentMachine, componentState, type ComponentEvent } from '../../machines/component.ts';

const run = (...events: ComponentEvent[]) => {
  const actor = createActor(componentMachine).start();
  const seen = [componentState(actor.getSnapshot().value)];
  for (const e of events) {
    actor.send(e);
    seen.push(componentState(actor.getSnapshot().value));
  }
  return seen;
};

test('a component starts, works, idles, and stops', () => {
  assert.equal(run({ type: 'STARTED' }, { type: 'WORK' }, { type: 'IDLE' }, { type: 'WORK' }, { type: 'STOP' }, { type: 'STOPPED' }),
    ['Starting', 'Running/Idle', 'Running/Busy', 'Running/Idle', 'Running/Busy', 'Stopping', 'Stopped']);
});

test('work before the start is ignored; a failed start goes to Failed and then stops', () => {
  assert.equal(run({ type: 'WORK' }, { type: 'FAILED', error: 'no API server' }, { type: 'STARTED' }, { type: 'STOP' }),
    ['Starting', 'Starting', 'Failed', 'Failed', 'Stopped']);
});

test('Stopped is final: nothing moves it', () => {
  const actor = createActor(componentMachine).start();
  actor.send({ type: 'STOP' });
  assert.is(actor.getSnapshot().status, 'done');
});

test.run();
