// The report's timelines from hand-made changes: a pod created, scheduled, started, then preempted
// (named by the preemptor the scheduler's decision gave) and deleted; a node-pressure eviction; a
// node Ready, Unknown, tainted and untainted, then deleted. Times count from the run's start.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { KObject } from '../../actors/api/types.ts';
import type { ChangeRecord } from '../../actors/apiserver/storage/store.ts';
import type { Decision } from '../../actors/scheduler/scheduler.ts';
import { Timelines } from '../../sim/timelines.ts';
import { manualClock } from '../helpers/manual-clock.ts';

const PREFIX = '/registry';
let revision = 0;
const change = (type: ChangeRecord['type'], key: string, object: Partial<KObject>): ChangeRecord =>
  ({ type, key: `${PREFIX}${key}`, object: { metadata: {}, ...object } as KObject, revision: ++revision });

test('a pod\'s life and a node\'s, entry by entry', () => {
  const clock = manualClock(1_000_000);
  const t = new Timelines(clock, PREFIX, clock.now());
  const pod = '/core/pods/default/web-0';
  const at = (ms: number) => clock.advance(ms - (clock.now() - 1_000_000));
  t.observe(change('ADDED', pod, { spec: {} }));
  at(20);
  t.observe(change('MODIFIED', pod, { spec: { nodeName: 'n1' } }));
  at(1_500);
  t.observe(change('MODIFIED', pod, { spec: { nodeName: 'n1' }, status: { phase: 'Running' } }));
  t.observe(change('MODIFIED', pod, { spec: { nodeName: 'n1' }, status: { phase: 'Running' } }));
  t.decision({ pod: 'default/urgent', preemption: { node: 'n1', victims: ['default/web-0'] } } as Decision);
  at(9_000);
  const preempted = { type: 'DisruptionTarget', status: 'True', reason: 'PreemptionByScheduler' };
  t.observe(change('MODIFIED', pod, { metadata: { deletionTimestamp: 'x' }, spec: { nodeName: 'n1' }, status: { phase: 'Running', conditions: [preempted] } }));
  at(39_000);
  t.observe(change('DELETED', pod, { spec: { nodeName: 'n1' } }));

  const pressed = '/core/pods/default/batch-0';
  t.observe(change('ADDED', pressed, { spec: { nodeName: 'n2' }, status: { phase: 'Running' } }));
  at(40_000);
  t.observe(change('MODIFIED', pressed, { spec: { nodeName: 'n2' }, status: { phase: 'Failed', reason: 'Evicted' } }));

  const node = '/core/nodes/n1';
  const ready = (status: string) => ({ conditions: [{ type: 'Ready', status }] });
  at(50_000);
  t.observe(change('ADDED', node, { status: ready('True') }));
  at(60_000);
  t.observe(change('MODIFIED', node, { status: ready('Unknown') }));
  t.observe(change('MODIFIED', node, { status: ready('Unknown'), spec: { taints: [{ key: 'node.kubernetes.io/unreachable', effect: 'NoExecute' }, { key: 'k', effect: 'NoSchedule' }] } }));
  at(70_000);
  t.observe(change('MODIFIED', node, { status: ready('True'), spec: { taints: [{ key: 'k', effect: 'NoSchedule' }] } }));
  at(80_000);
  t.observe(change('DELETED', node, { status: ready('True') }));

  assert.equal(t.report(), {
    pods: {
      'default/web-0': [[0, 'created'], [20, 'scheduled', 'n1'], [1_500, 'started'], [9_000, 'preempted', 'default/urgent'], [39_000, 'deleted']],
      'default/batch-0': [[39_000, 'created'], [39_000, 'scheduled', 'n2'], [39_000, 'started'], [40_000, 'evicted', 'node-pressure']],
    },
    nodes: {
      n1: [[50_000, 'registered'], [50_000, 'Ready'], [60_000, 'Unknown'], [60_000, 'tainted', 'node.kubernetes.io/unreachable'],
        [70_000, 'Ready'], [70_000, 'untainted', 'node.kubernetes.io/unreachable'], [80_000, 'deleted']],
    },
  });
});

test.run();
