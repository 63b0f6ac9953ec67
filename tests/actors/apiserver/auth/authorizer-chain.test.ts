// The chain of --authorization-mode: the first mode that allows or denies decides; it answers at
// once while its modes do, and with a promise only from the first mode that answers later; the
// reasons and evaluation errors of the modes with no opinion are gathered as the real union does.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { authorizerFor, type Authorizer, type Decision } from '../../../../actors/apiserver/auth/authorizer.ts';

const A = { user: { username: 'u', groups: ['system:authenticated'] }, verb: 'get', apiGroup: '', resource: 'pods', namespace: 'default' };
const now = (d: Decision): Authorizer => ({ authorize: () => d });
const later = (d: Decision): Authorizer => ({ authorize: () => Promise.resolve(d) });
/** A mode that counts the times it was asked. */
function counted(d: Decision): Authorizer & { asked: number } {
  const m = { asked: 0, authorize: () => (m.asked++, d) };
  return m;
}

test('synchronous modes answer at once: no promise on the hot path', () => {
  const chain = authorizerFor(['ABAC', 'AlwaysAllow'], { abac: now({ decision: 'noOpinion', reason: 'No policy matched.' }) });
  const d = chain.authorize(A);
  assert.not.instance(d, Promise);
  assert.equal(d, { decision: 'allow', reason: '' });
});

test('a mode that answers later makes the chain a promise, and the modes after it are still asked in order', async () => {
  const after = counted({ decision: 'deny', reason: 'no' });
  const chain = authorizerFor(['Webhook', 'ABAC'], { webhook: later({ decision: 'noOpinion', reason: 'not mine' }), abac: after });
  const d = chain.authorize(A);
  assert.instance(d, Promise);
  assert.is(after.asked, 0, 'the next mode waits for the webhook');
  assert.equal(await d, { decision: 'deny', reason: 'no' });
  assert.is(after.asked, 1);
});

test('a mode that decides first ends the chain: later modes are never asked', async () => {
  const after = counted({ decision: 'allow', reason: '' });
  assert.equal(await authorizerFor(['Webhook', 'ABAC'], { webhook: later({ decision: 'deny', reason: 'banned' }), abac: after }).authorize(A),
    { decision: 'deny', reason: 'banned' });
  assert.is(after.asked, 0);
});

test('with no opinion anywhere: reasons joined by lines, evaluation errors aggregated as the real union does', async () => {
  const e1 = { decision: 'noOpinion', reason: '', evaluationError: 'Post "https://a": refused' } as const;
  const one = await authorizerFor(['Webhook', 'ABAC'], { webhook: later(e1), abac: now({ decision: 'noOpinion', reason: 'No policy matched.' }) }).authorize(A);
  assert.equal(one, { decision: 'noOpinion', reason: 'No policy matched.', evaluationError: 'Post "https://a": refused' });
  const two = await authorizerFor(['Webhook', 'ABAC'], { webhook: later(e1), abac: now({ decision: 'noOpinion', reason: 'r', evaluationError: 'broken' }) }).authorize(A);
  assert.is(two.evaluationError, '[Post "https://a": refused, broken]');
  const same = await authorizerFor(['Webhook', 'ABAC'], { webhook: later(e1), abac: now(e1) }).authorize(A);
  assert.is(same.evaluationError, 'Post "https://a": refused', 'one distinct error is not bracketed');
});

test('system:masters is allowed before any mode is asked', () => {
  const webhook = counted({ decision: 'deny', reason: '' });
  assert.equal(authorizerFor(['Webhook'], { webhook }).authorize({ ...A, user: { username: 'root', groups: ['system:masters'] } }), { decision: 'allow', reason: '' });
  assert.is(webhook.asked, 0);
});

test('ABAC and Webhook without their files are refused when the chain is built', () => {
  assert.throws(() => authorizerFor(['ABAC']), /authorization mode ABAC needs its configuration file/);
  assert.throws(() => authorizerFor(['RBAC', 'Webhook'], {}), /authorization mode RBAC needs the cluster's state/);
});

test.run();
