import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { KObject } from '../../../../actors/api/types.ts';
import type { ResourceType } from '../../../../actors/api/resources.ts';
import { kindOf } from '../../../../actors/apiserver/registry/kinds/index.ts';
import * as tables from '../../../../actors/apiserver/registry/tables.ts';

/** The printer of a built-in resource, by plural and group. */
const kind = (resource: string, group: string) => kindOf({ group, resource } as ResourceType);
const tableColumns = (resource: string, group: string) => tables.tableColumns(kind(resource, group));
const tableCells = (resource: string, group: string, o: KObject, nowMs: number) => tables.tableCells(kind(resource, group), o, nowMs);

const NOW = Date.parse('2024-05-01T12:00:00Z');
const CREATED = '2024-05-01T11:50:00Z'; // 10m before NOW

function pod(spec: Record<string, unknown>, status: Record<string, unknown>, meta: Partial<KObject['metadata']> = {}): KObject {
  return { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web', namespace: 'default', creationTimestamp: CREATED, ...meta }, spec, status };
}
const oneContainer = { containers: [{ name: 'app', image: 'nginx' }] };
const running = { running: { startedAt: CREATED } };
const cells = (p: KObject) => tableCells('pods', '', p, NOW);
/** Name, Ready, Status, Restarts, Age: the columns kubectl shows without -o wide. */
const head = (p: KObject) => cells(p).slice(0, 5);

test('pod columns are the 1.32 printer columns, the last four only with -o wide', () => {
  const cols = tableColumns('pods', '');
  assert.equal(cols.map((c) => c.name), ['Name', 'Ready', 'Status', 'Restarts', 'Age', 'IP', 'Node', 'Nominated Node', 'Readiness Gates']);
  assert.equal(cols.map((c) => c.priority), [0, 0, 0, 0, 0, 1, 1, 1, 1]);
  assert.equal(cols[0], { ...cols[0], name: 'Name', type: 'string', format: 'name' });
  assert.is(cols[3].type, 'string');
  assert.ok(cols.every((c) => typeof c.description === 'string' && c.description.length > 0));
});

test('a running ready pod reads 1/1 Running with no restarts, its IP and node', () => {
  const p = pod({ ...oneContainer, nodeName: 'node-1' }, {
    phase: 'Running', podIP: '10.1.0.3', podIPs: [{ ip: '10.1.0.3' }],
    conditions: [{ type: 'Initialized', status: 'True' }, { type: 'Ready', status: 'True' }],
    containerStatuses: [{ name: 'app', ready: true, restartCount: 0, state: running }],
  });
  assert.equal(cells(p), ['web', '1/1', 'Running', '0', '10m', '10.1.0.3', 'node-1', '<none>', '<none>']);
});

test('an unscheduled pod reads Pending with <none> for IP and node', () => {
  const p = pod(oneContainer, { phase: 'Pending', conditions: [{ type: 'PodScheduled', status: 'False', reason: 'Unschedulable' }] });
  assert.equal(cells(p), ['web', '0/1', 'Pending', '0', '10m', '<none>', '<none>', '<none>', '<none>']);
});

test('a pod whose containers are being created reads ContainerCreating', () => {
  const p = pod({ ...oneContainer, nodeName: 'node-1' }, {
    phase: 'Pending', containerStatuses: [{ name: 'app', ready: false, restartCount: 0, state: { waiting: { reason: 'ContainerCreating' } } }],
  });
  assert.equal(head(p), ['web', '0/1', 'ContainerCreating', '0', '10m']);
});

test('a pod with a deletionTimestamp reads Terminating until it has finished', () => {
  const status = { phase: 'Running', containerStatuses: [{ name: 'app', ready: true, restartCount: 0, state: running }] };
  assert.is(cells(pod(oneContainer, status, { deletionTimestamp: '2024-05-01T11:59:00Z' }))[2], 'Terminating');
  const done = { phase: 'Succeeded', containerStatuses: [{ name: 'app', state: { terminated: { exitCode: 0, reason: 'Completed' } } }] };
  assert.is(cells(pod(oneContainer, done, { deletionTimestamp: '2024-05-01T11:59:00Z' }))[2], 'Completed');
  assert.is(cells(pod(oneContainer, { ...status, reason: 'NodeLost' }, { deletionTimestamp: '2024-05-01T11:59:00Z' }))[2], 'Unknown');
});

test('a finished pod reads Completed, 0/1, from its container state', () => {
  const p = pod({ ...oneContainer, restartPolicy: 'Never' }, {
    phase: 'Succeeded', containerStatuses: [{ name: 'app', ready: false, restartCount: 0, state: { terminated: { exitCode: 0, reason: 'Completed' } } }],
  });
  assert.equal(head(p), ['web', '0/1', 'Completed', '0', '10m']);
});

test('a crash-looping pod shows the waiting reason and restarts with the age of the last one', () => {
  const p = pod(oneContainer, {
    phase: 'Running', containerStatuses: [{
      name: 'app', ready: false, restartCount: 2, state: { waiting: { reason: 'CrashLoopBackOff' } },
      lastState: { terminated: { exitCode: 1, reason: 'Error', finishedAt: '2024-05-01T11:55:00Z' } },
    }],
  });
  assert.equal(head(p), ['web', '0/1', 'CrashLoopBackOff', '2 (5m ago)', '10m']);
});

test('restarts without a recorded termination time are a bare count', () => {
  const p = pod(oneContainer, { phase: 'Running', containerStatuses: [{ name: 'app', ready: true, restartCount: 3, state: running }] });
  assert.is(cells(p)[3], '3');
});

test('a terminated container without a reason shows its signal or exit code', () => {
  const status = (terminated: object) => ({ phase: 'Failed', containerStatuses: [{ name: 'app', state: { terminated } }] });
  assert.is(cells(pod(oneContainer, status({ exitCode: 137, signal: 9 })))[2], 'Signal:9');
  assert.is(cells(pod(oneContainer, status({ exitCode: 3 })))[2], 'ExitCode:3');
});

test('init containers show Init:n/m while they run and Init:<reason> when they fail', () => {
  const spec = { ...oneContainer, initContainers: [{ name: 'setup', image: 'busybox' }] };
  const waitingApp = [{ name: 'app', state: { waiting: { reason: 'PodInitializing' } } }];
  const runningInit = pod(spec, { phase: 'Pending', initContainerStatuses: [{ name: 'setup', state: running }], containerStatuses: waitingApp });
  assert.equal(head(runningInit), ['web', '0/1', 'Init:0/1', '0', '10m']);
  const failing = pod(spec, { phase: 'Pending', initContainerStatuses: [{ name: 'setup', restartCount: 4, state: { waiting: { reason: 'CrashLoopBackOff' } },
    lastState: { terminated: { exitCode: 1, finishedAt: '2024-05-01T11:58:00Z' } } }], containerStatuses: waitingApp });
  assert.equal(head(failing), ['web', '0/1', 'Init:CrashLoopBackOff', '4 (2m ago)', '10m']);
  const errored = pod(spec, { phase: 'Pending', initContainerStatuses: [{ name: 'setup', state: { terminated: { exitCode: 2 } } }] });
  assert.is(cells(errored)[2], 'Init:ExitCode:2');
});

test('a started sidecar counts toward readiness and its restarts stay counted after init', () => {
  const spec = { ...oneContainer, initContainers: [{ name: 'proxy', image: 'envoy', restartPolicy: 'Always' }] };
  const p = pod(spec, {
    phase: 'Running', conditions: [{ type: 'Initialized', status: 'True' }, { type: 'Ready', status: 'True' }],
    initContainerStatuses: [{ name: 'proxy', started: true, ready: true, restartCount: 1, state: running,
      lastState: { terminated: { exitCode: 1, finishedAt: '2024-05-01T11:59:00Z' } } }],
    containerStatuses: [{ name: 'app', ready: true, restartCount: 0, state: running }],
  });
  assert.equal(head(p), ['web', '2/2', 'Running', '1 (60s ago)', '10m']);
});

test('a completed container beside a running one reads Running when the pod is ready, else NotReady', () => {
  const spec = { containers: [{ name: 'a', image: 'x' }, { name: 'b', image: 'y' }] };
  const statuses = [
    { name: 'a', ready: false, state: { terminated: { exitCode: 0, reason: 'Completed' } } },
    { name: 'b', ready: true, state: running },
  ];
  assert.is(cells(pod(spec, { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }], containerStatuses: statuses }))[2], 'Running');
  assert.is(cells(pod(spec, { phase: 'Running', containerStatuses: statuses }))[2], 'NotReady');
});

test('a scheduling-gated pod reads SchedulingGated', () => {
  const p = pod({ ...oneContainer, schedulingGates: [{ name: 'wait' }] },
    { phase: 'Pending', conditions: [{ type: 'PodScheduled', status: 'False', reason: 'SchedulingGated' }] });
  assert.is(cells(p)[2], 'SchedulingGated');
});

test('wide cells: the first pod IP, the nominated node and the count of true readiness gates', () => {
  const p = pod({ ...oneContainer, readinessGates: [{ conditionType: 'lb/ready' }, { conditionType: 'dns/ready' }] }, {
    phase: 'Pending', podIPs: [{ ip: 'fd00::3' }, { ip: '10.1.0.4' }], nominatedNodeName: 'node-2',
    conditions: [{ type: 'lb/ready', status: 'True' }, { type: 'dns/ready', status: 'False' }],
  });
  assert.equal(cells(p).slice(5), ['fd00::3', '<none>', 'node-2', '1/2']);
});

test('a pod without a creationTimestamp has age <unknown>', () => {
  assert.is(cells(pod(oneContainer, {}, { creationTimestamp: undefined }))[4], '<unknown>');
});

test.run();
