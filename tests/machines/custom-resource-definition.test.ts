// A CustomResourceDefinition's machine: names first, then serving; a conflict waits; a failed step
// is tried again after the retry delay on the clock; deletion deletes the objects, then finalizes.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createActor, fromPromise } from 'xstate';
import { customResourceDefinitionMachine } from '../../machines/custom-resource-definition.ts';
import { machineClock } from '../helpers/machine-clock.ts';

/** Each invoked step resolves or rejects as `outcomes` says, in turn; every call is logged. */
function host(outcomes: Record<string, boolean[]> = {}) {
  const clock = machineClock();
  const calls: string[] = [];
  const step = (name: string) => fromPromise<void, { name: string }>(async () => {
    calls.push(`${name}@${clock.now()}`);
    if (outcomes[name]?.shift() === false) throw new Error(`${name} failed`);
  });
  const machine = customResourceDefinitionMachine.provide({
    actions: { reject: () => void calls.push(`reject@${clock.now()}`) },
    actors: { establish: step('establish'), deleteInstances: step('deleteInstances'), finalize: step('finalize') },
  });
  const actor = createActor(machine, { clock, input: { name: 'widgets.example.com', retryMs: 5_000 }, id: 'crd/widgets.example.com' }).start();
  const state = () => JSON.stringify(actor.getSnapshot().value);
  /** Lets the invoked promises settle. */
  const settle = async () => {
    for (let i = 0; i < 5; i++) await Promise.resolve();
  };
  return { clock, actor, calls, state, settle };
}

test('accepted names establish the definition once its types are served', async () => {
  const h = host();
  assert.is(h.state(), '"Naming"');
  h.actor.send({ type: 'NAMES', accepted: true });
  await h.settle();
  assert.is(h.state(), '"Established"');
  assert.equal(h.calls, ['establish@0']);
  h.actor.send({ type: 'NAMES', accepted: true }); // a status write seen again changes nothing
  assert.is(h.state(), '"Established"');
});

test('names another definition holds are rejected until they are free', async () => {
  const h = host();
  h.actor.send({ type: 'NAMES', accepted: false });
  assert.is(h.state(), '"NotAccepted"');
  h.actor.send({ type: 'NAMES', accepted: false });
  assert.equal(h.calls, ['reject@0']);
  h.actor.send({ type: 'NAMES', accepted: true });
  await h.settle();
  assert.is(h.state(), '"Established"');
});

test('a failed establishment is tried again after the retry delay', async () => {
  const h = host({ establish: [false, true] });
  h.actor.send({ type: 'NAMES', accepted: true });
  await h.settle();
  assert.is(h.state(), '{"Establishing":"Waiting"}');
  h.clock.advance(4_999);
  await h.settle();
  assert.is(h.calls.length, 1);
  h.clock.advance(1);
  await h.settle();
  assert.equal(h.calls, ['establish@0', 'establish@5000']);
  assert.is(h.state(), '"Established"');
});

test('a changed spec is served anew', async () => {
  const h = host();
  h.actor.send({ type: 'NAMES', accepted: true });
  await h.settle();
  h.actor.send({ type: 'SPEC_CHANGED' });
  await h.settle();
  assert.equal(h.calls, ['establish@0', 'establish@0']);
  assert.is(h.state(), '"Established"');
});

test('deletion deletes the objects until none is left, then finalizes, and the store\'s removal ends it', async () => {
  const h = host({ deleteInstances: [false, true] });
  h.actor.send({ type: 'NAMES', accepted: true });
  await h.settle();
  h.actor.send({ type: 'DELETING' });
  await h.settle();
  assert.is(h.state(), '{"Terminating":{"DeletingInstances":"Waiting"}}');
  h.actor.send({ type: 'DELETING' }); // a status write of the terminating definition seen again
  h.clock.advance(5_000);
  await h.settle();
  assert.equal(h.calls, ['establish@0', 'deleteInstances@0', 'deleteInstances@5000', 'finalize@5000']);
  assert.is(h.state(), '{"Terminating":{"Finalizing":"Removing"}}');
  h.actor.send({ type: 'GONE' });
  assert.is(h.state(), '"Removed"');
  assert.is(h.actor.getSnapshot().status, 'done');
});

test('a definition deleted before its names were accepted still finalizes', async () => {
  const h = host();
  h.actor.send({ type: 'NAMES', accepted: false });
  h.actor.send({ type: 'DELETING' });
  await h.settle();
  assert.equal(h.calls, ['reject@0', 'deleteInstances@0', 'finalize@0']);
});

test.run();
