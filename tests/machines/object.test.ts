import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createActor, initialTransition, transition } from 'xstate';
import { objectMachine, type DeleteEvent, type ObjectEvent, type ObjectInput, type ObjectSnapshot } from '../../machines/object.ts';

const CONFIGMAPS = { group: '', resource: 'configmaps' };
const EVENTS = { group: '', resource: 'events' };

const live = (input: ObjectInput = {}) => initialTransition(objectMachine, input)[0];
const send = (s: ObjectSnapshot, e: ObjectEvent) => transition(objectMachine, s, e)[0];
const del = (atMs: number, more: Partial<Omit<DeleteEvent, 'type' | 'atMs'>> = {}): DeleteEvent =>
  ({ type: 'DELETE', atMs, gracePeriodSeconds: 0, resource: CONFIGMAPS, ...more });
const changed = (finalizers: string[], blocked = false): ObjectEvent => ({ type: 'FINALIZERS_CHANGED', finalizers, blocked });
/** A pod deleted at `atMs` with a grace period of `grace` seconds. */
const graceful = (grace: number, atMs = 1_000, finalizers: string[] = []) => send(live({ finalizers }), del(atMs, { gracePeriodSeconds: grace }));

// ---- Finalizers (seed 000, "States and transitions") ----------------------------------------------

test('Live, DELETE with finalizers pending: Terminating, deletion timestamp the time of the request', () => {
  const s = send(live({ finalizers: ['orch.io/a', 'orch.io/b'] }), del(5_000));
  assert.is(s.value, 'Terminating');
  assert.equal(s.context, { finalizers: ['orch.io/a', 'orch.io/b'], blocked: false, deletionMs: 5_000, gracePeriodSeconds: 0 });
});

test('a delete of an object nothing holds removes it at once', () => {
  const s = send(live(), del(5_000));
  assert.is(s.value, 'Removed');
  assert.is(s.status, 'done');
});

test('Terminating stays until the last finalizer goes, then Removed and final', () => {
  let s = send(live({ finalizers: ['orch.io/a', 'orch.io/b'] }), del(0));
  s = send(s, changed(['orch.io/b']));
  assert.is(s.value, 'Terminating');
  assert.equal(s.context.finalizers, ['orch.io/b']);
  s = send(s, changed([]));
  assert.is(s.value, 'Removed');
  assert.is(s.status, 'done');
});

test('finalizers may be removed in any order and reordered while Terminating', () => {
  let s = send(live({ finalizers: ['x', 'y', 'z'] }), del(0));
  s = send(s, changed(['z', 'x']));
  assert.equal(s.context.finalizers, ['z', 'x']);
  s = send(s, changed(['x']));
  assert.is(send(s, changed([])).value, 'Removed');
});

test('adding a finalizer while Terminating is rejected: the same snapshot back, and can() is false', () => {
  const s = send(live({ finalizers: ['orch.io/a'] }), del(0));
  const adding = changed(['orch.io/a', 'orch.io/new']);
  assert.not.ok(s.can(adding));
  assert.is(send(s, adding), s);
  // Swapping one finalizer for another adds one too.
  assert.is(send(s, changed(['orch.io/other'])), s);
});

test('Live objects are not the machine\'s business until deleted: a finalizer change is not taken', () => {
  const s = live({ finalizers: ['orch.io/a'] });
  assert.is(send(s, changed([])), s);
});

test('Removed ignores every event', () => {
  const s = send(live(), del(0));
  assert.is(send(s, changed(['orch.io/a'])), s);
  assert.is(send(s, del(1_000)), s);
});

test('the machine runs as an actor too, on the same rules', () => {
  const a = createActor(objectMachine, { input: { finalizers: ['orch.io/a'] } }).start();
  a.send(del(0));
  a.send(changed(['orch.io/a', 'orch.io/b']));
  assert.equal(a.getSnapshot().context.finalizers, ['orch.io/a']);
  a.send(changed([]));
  assert.is(a.getSnapshot().status, 'done');
});

// ---- A kind that blocks removal (a Namespace's spec.finalizers) ---------------------------------

test('a blocked object is held without finalizers, and goes once the block is lifted', () => {
  let s = send(live({ blocked: true }), del(2_000));
  assert.is(s.value, 'Terminating');
  assert.is(s.context.blocked, true);
  s = send(s, changed([], false));
  assert.is(s.value, 'Removed');
});

test('lifting the block leaves an object its finalizers still hold', () => {
  let s = send(live({ finalizers: ['orch.io/a'], blocked: true }), del(0));
  s = send(s, changed(['orch.io/a'], false));
  assert.is(s.value, 'Terminating');
  assert.is(s.context.blocked, false);
  assert.is(send(s, changed([], false)).value, 'Removed');
});

// ---- Grace periods ------------------------------------------------------------------------------

test('a grace period holds the object: the deletion timestamp is the request time plus the period', () => {
  const s = graceful(30, 1_000);
  assert.is(s.value, 'Terminating');
  assert.equal(s.context, { finalizers: [], blocked: false, deletionMs: 31_000, gracePeriodSeconds: 30 });
});

test('a later delete with a longer or equal period changes nothing', () => {
  const s = graceful(30);
  assert.is(send(s, del(6_000, { gracePeriodSeconds: 30 })), s);
  assert.is(send(s, del(6_000, { gracePeriodSeconds: 60 })), s);
});

test('a shorter period counts from when deletion was first asked for, not from the later request', () => {
  const s = send(graceful(30, 1_000), del(6_000, { gracePeriodSeconds: 10 }));
  assert.is(s.value, 'Terminating');
  assert.is(s.context.deletionMs, 11_000);
  assert.is(s.context.gracePeriodSeconds, 10);
});

test('a grace period cut to 0 removes an object nothing else holds', () => {
  const s = send(graceful(30), del(6_000));
  assert.is(s.value, 'Removed');
});

test('a grace period cut to 0 leaves an object its finalizers hold, terminating from the first request', () => {
  const s = send(graceful(30, 1_000, ['orch.io/a']), del(6_000));
  assert.is(s.value, 'Terminating');
  assert.equal(s.context, { finalizers: ['orch.io/a'], blocked: false, deletionMs: 1_000, gracePeriodSeconds: 0 });
});

test('the last finalizer going leaves an object while its grace period runs', () => {
  const s = send(graceful(30, 1_000, ['orch.io/a']), changed([]));
  assert.is(s.value, 'Terminating');
  assert.equal(s.context.finalizers, []);
  assert.is(send(s, del(9_000)).value, 'Removed');
});

// ---- Propagation --------------------------------------------------------------------------------

test('Orphan holds the object with the orphan finalizer', () => {
  const s = send(live(), del(0, { propagationPolicy: 'Orphan' }));
  assert.is(s.value, 'Terminating');
  assert.equal(s.context.finalizers, ['orphan']);
});

test('Foreground appends foregroundDeletion after the finalizers the object had', () => {
  const s = send(live({ finalizers: ['orch.io/a'] }), del(0, { propagationPolicy: 'Foreground' }));
  assert.equal(s.context.finalizers, ['orch.io/a', 'foregroundDeletion']);
});

test('orphanDependents decides before the policy: true orphans, false asks for neither', () => {
  assert.equal(send(live(), del(0, { orphanDependents: true })).context.finalizers, ['orphan']);
  assert.is(send(live(), del(0, { orphanDependents: false })).value, 'Removed');
});

test('Background removes an object nothing else holds at once', () => {
  assert.is(send(live(), del(0, { propagationPolicy: 'Background' })).value, 'Removed');
});

test('a later delete swaps one policy finalizer for the other and keeps the deletion timestamp', () => {
  let s = send(live({ finalizers: ['orch.io/a'] }), del(1_000, { propagationPolicy: 'Orphan' }));
  s = send(s, del(6_000, { propagationPolicy: 'Foreground' }));
  assert.is(s.value, 'Terminating');
  assert.equal(s.context.finalizers, ['orch.io/a', 'foregroundDeletion']);
  assert.is(s.context.deletionMs, 1_000);
  s = send(s, del(7_000, { orphanDependents: true }));
  assert.equal(s.context.finalizers, ['orch.io/a', 'orphan']);
});

test('a later delete without a policy keeps the finalizer an earlier one left: no transition', () => {
  const s = send(live(), del(0, { propagationPolicy: 'Orphan' }));
  assert.is(send(s, del(5_000)), s);
});

test('a later Background delete takes the policy finalizer off: with nothing left the object goes', () => {
  const fg = send(live(), del(0, { propagationPolicy: 'Foreground' }));
  assert.is(send(fg, del(1_000, { propagationPolicy: 'Background' })).value, 'Removed');
  const held = send(live({ finalizers: ['orch.io/a'] }), del(0, { propagationPolicy: 'Orphan' }));
  const kept = send(held, del(1_000, { propagationPolicy: 'Background' }));
  assert.is(kept.value, 'Terminating');
  assert.equal(kept.context.finalizers, ['orch.io/a']);
});

test('a policy finalizer already on the object, in any place, is no change', () => {
  const s = live({ finalizers: ['orphan', 'orch.io/a'] });
  const next = send(s, del(0, { propagationPolicy: 'Orphan' }));
  assert.is(next.context.finalizers, s.context.finalizers);
});

test('events are never garbage collected: Orphan and Foreground remove them at once', () => {
  for (const propagationPolicy of ['Orphan', 'Foreground'])
    assert.is(send(live(), del(0, { resource: EVENTS, propagationPolicy })).value, 'Removed', propagationPolicy);
});

test('while a grace period runs a later delete leaves the finalizers; one that shortens the period may change them', () => {
  const s = send(live(), del(1_000, { gracePeriodSeconds: 30, propagationPolicy: 'Orphan' }));
  assert.equal(s.context.finalizers, ['orphan']);
  assert.is(send(s, del(2_000, { gracePeriodSeconds: 30, propagationPolicy: 'Foreground' })), s);
  const shorter = send(s, del(2_000, { gracePeriodSeconds: 10, propagationPolicy: 'Foreground' }));
  assert.equal(shorter.context.finalizers, ['foregroundDeletion']);
  assert.is(shorter.context.deletionMs, 11_000);
  // The node agent's final delete (grace 0) leaves the object to its finalizer.
  const last = send(shorter, del(3_000));
  assert.is(last.value, 'Terminating');
  assert.equal(last.context.finalizers, ['foregroundDeletion']);
  assert.is(last.context.gracePeriodSeconds, 0);
});

test.run();
