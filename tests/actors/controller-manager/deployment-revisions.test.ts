// Deployment revisions in a simulated cluster on virtual time, numbered and annotated as the real
// controller does: each new template's ReplicaSet takes the next revision, a set whose template
// comes back is renumbered with its old number kept in revision-history, the Deployment carries its
// new set's revision, and the Deployment's own annotations (change-cause) travel to the new set.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { lookupResource } from '../../../actors/api/resources.ts';
import type { KObject } from '../../../actors/api/types.ts';
import type { ApiClient } from '../../../actors/client/client.ts';
import { maxRevision, newSetAnnotations } from '../../../actors/controller-manager/controllers/deployment-revisions.ts';
import { simCluster } from '../../helpers/sim-cluster.ts';

const DEPLOYMENTS = lookupResource('apps', 'v1', 'deployments')!;
const RS = lookupResource('apps', 'v1', 'replicasets')!;
const REVISION = 'deployment.kubernetes.io/revision';
const HISTORY = 'deployment.kubernetes.io/revision-history';
type Rec = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const cluster = () => simCluster();

const template = (image: string) => ({ metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image, resources: { requests: { cpu: '100m' } } }] } });
const deployment = (image: string, annotations: Record<string, string> = {}): KObject => ({
  metadata: { name: 'web', namespace: 'default', annotations },
  spec: { replicas: 2, selector: { matchLabels: { app: 'web' } }, template: template(image) },
} as KObject);
const setImage = (image: string) => ({ spec: { template: { spec: { containers: [{ name: 'c', image, resources: { requests: { cpu: '100m' } } }] } } } });

/** Each set as `image revision [history]`, by image. */
async function revisions(client: ApiClient): Promise<string[]> {
  const sets = (await client.list(RS, 'default')).items as Rec[];
  return sets.map((rs) => [rs.spec.template.spec.containers[0].image, rs.metadata.annotations[REVISION], rs.metadata.annotations[HISTORY]].filter(Boolean).join(' ')).sort();
}
const deploymentRevision = async (client: ApiClient) => ((await client.get(DEPLOYMENTS, 'default', 'web')) as Rec).metadata.annotations?.[REVISION];

test('each new template takes the next revision, and the Deployment carries its new set\'s', async () => {
  const { c, client, run } = await cluster();
  await client.create(DEPLOYMENTS, deployment('nginx:1'));
  await run(30_000);
  assert.is(await deploymentRevision(client), '1');
  await client.patch(DEPLOYMENTS, 'default', 'web', setImage('nginx:2'), 'strategic');
  await run(60_000);
  await client.patch(DEPLOYMENTS, 'default', 'web', setImage('nginx:3'), 'strategic');
  await run(60_000);
  assert.equal(await revisions(client), ['nginx:1 1', 'nginx:2 2', 'nginx:3 3']);
  assert.is(await deploymentRevision(client), '3');
  c.stop();
});

test('a template set back reuses its set, renumbered to the next revision with its old one in revision-history', async () => {
  const { c, client, run } = await cluster();
  await client.create(DEPLOYMENTS, deployment('nginx:1'));
  await run(30_000);
  for (const image of ['nginx:2', 'nginx:3']) {
    await client.patch(DEPLOYMENTS, 'default', 'web', setImage(image), 'strategic');
    await run(60_000);
  }
  // What kubectl rollout undo writes: the old set's template, with the null creationTimestamp Go marshals.
  await client.patch(DEPLOYMENTS, 'default', 'web', [{ op: 'replace', path: '/spec/template', value: { ...template('nginx:2'), metadata: { creationTimestamp: null, labels: { app: 'web' } } } }], 'json');
  await run(60_000);
  assert.equal(await revisions(client), ['nginx:1 1', 'nginx:2 4 2', 'nginx:3 3'], 'no fourth set: the nginx:2 set is reused');
  assert.is(await deploymentRevision(client), '4');
  await client.patch(DEPLOYMENTS, 'default', 'web', setImage('nginx:1'), 'strategic');
  await run(60_000);
  await client.patch(DEPLOYMENTS, 'default', 'web', setImage('nginx:2'), 'strategic');
  await run(60_000);
  assert.equal(await revisions(client), ['nginx:1 5 1', 'nginx:2 6 2,4', 'nginx:3 3'], 'the history grows oldest first');
  assert.is(await deploymentRevision(client), '6');
  const sets = (await client.list(RS, 'default')).items as Rec[];
  assert.equal(sets.map((rs) => rs.spec.replicas).sort(), [0, 0, 2]);
  c.stop();
});

test('the Deployment\'s annotations travel to its new set, except the controller\'s own and the last-applied configuration', async () => {
  const { c, client, run } = await cluster();
  await client.create(DEPLOYMENTS, deployment('nginx:1', { 'kubernetes.io/change-cause': 'first', 'kubectl.kubernetes.io/last-applied-configuration': '{}', team: 'a' }));
  await run(30_000);
  await client.patch(DEPLOYMENTS, 'default', 'web', { metadata: { annotations: { 'kubernetes.io/change-cause': 'second' } }, ...setImage('nginx:2') }, 'strategic');
  await run(60_000);
  const sets = ((await client.list(RS, 'default')).items as Rec[]).sort((a, b) => a.metadata.annotations[REVISION] - b.metadata.annotations[REVISION]);
  assert.equal(sets.map((rs) => rs.metadata.annotations), [
    { 'kubernetes.io/change-cause': 'first', team: 'a', [REVISION]: '1', 'deployment.kubernetes.io/desired-replicas': '2', 'deployment.kubernetes.io/max-replicas': '3' },
    { 'kubernetes.io/change-cause': 'second', team: 'a', [REVISION]: '2', 'deployment.kubernetes.io/desired-replicas': '2', 'deployment.kubernetes.io/max-replicas': '3' },
  ]);
  // An annotation added later reaches the current set only; none is taken away from a set.
  await client.patch(DEPLOYMENTS, 'default', 'web', { metadata: { annotations: { team: null, 'kubernetes.io/change-cause': 'later' } } }, 'merge');
  await run(5_000);
  const now = ((await client.list(RS, 'default')).items as Rec[]).map((rs) => [rs.metadata.annotations[REVISION], rs.metadata.annotations['kubernetes.io/change-cause'], rs.metadata.annotations.team]).sort();
  assert.equal(now, [['1', 'first', 'a'], ['2', 'later', 'a']]);
  c.stop();
});

test('the new set takes the Deployment\'s minReadySeconds, also when the Deployment changes it', async () => {
  const { c, client, run } = await cluster();
  await client.create(DEPLOYMENTS, { ...deployment('nginx:1'), spec: { ...deployment('nginx:1').spec as Rec, minReadySeconds: 5 } } as KObject);
  await run(30_000);
  let [rs] = (await client.list(RS, 'default')).items as Rec[];
  assert.is(rs!.spec.minReadySeconds, 5);
  await client.patch(DEPLOYMENTS, 'default', 'web', { spec: { minReadySeconds: 0 } }, 'merge');
  await run(5_000);
  [rs] = (await client.list(RS, 'default')).items as Rec[];
  assert.is(rs!.spec.minReadySeconds ?? 0, 0);
  assert.is(rs!.metadata.annotations[REVISION], '1', 'same template, same revision');
  c.stop();
});

const set = (revision?: string): KObject => ({ metadata: { annotations: revision === undefined ? {} : { [REVISION]: revision } } } as KObject);

test('the highest revision skips sets whose revision is not a number and counts a missing one as 0', () => {
  assert.is(maxRevision([set('3'), set('x'), set(), set('7'), set('5')]), 7);
  assert.is(maxRevision([set()]), 0);
  assert.is(maxRevision([]), 0);
});

test('a revision is never lowered, and one that is not a number leaves the set alone', () => {
  const d = deployment('nginx:1');
  assert.is(newSetAnnotations(d, { [REVISION]: '9' }, 4, true), undefined);
  assert.is(newSetAnnotations(d, { [REVISION]: 'nine' }, 4, true), undefined);
  assert.equal(newSetAnnotations(d, {}, 1, true), { [REVISION]: '1' }, 'a set without a revision gets one and no history');
});

test('revision-history drops its oldest entries to stay within 2000 characters', () => {
  const d = deployment('nginx:1');
  const history = Array.from({ length: 400 }, (_, i) => String(1099 + i)).join(','); // 1099..1498: 1999 characters
  const next = newSetAnnotations(d, { [REVISION]: '2000', [HISTORY]: history }, 2001, true)!;
  assert.is(next[REVISION], '2001');
  assert.ok(next[HISTORY]!.length <= 2000, `${next[HISTORY]!.length} characters`);
  assert.ok(next[HISTORY]!.endsWith(',1498,2000'));
  assert.ok(next[HISTORY]!.startsWith('1100,'), 'exactly the oldest entry went');
});

test.run();
