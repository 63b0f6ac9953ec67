// metrics.k8s.io/v1beta1 over HTTPS, as a metrics server behind the aggregation layer serves it:
// discovery lists the group (legacy and aggregated), NodeMetrics and PodMetrics answer get and list
// with the node agent's figures at a step of the resolution grid, label selectors filter, what has
// no metrics is a 404 in the real words, and verbs it does not serve are 405.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { NodeAgent } from '../../../actors/nodeagent/nodeagent.ts';
import { CPU_USAGE, MEMORY_USAGE } from '../../../actors/nodeagent/pod-usage.ts';
import { MetricsServer } from '../../../actors/metrics-server/metrics-server.ts';
import { wallClock } from '../../../sim/clock.ts';
import { seededRandom } from '../../../sim/random.ts';
import { startTestServer } from '../../helpers/api-server.ts';
import { eventually } from '../../helpers/real-time.ts';

const NODE = 'metrics-node';
const AGGREGATED = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList';
type Rec = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

test('NodeMetrics and PodMetrics are listed in discovery and answer get and list with the agent\'s figures on the grid', async () => {
  const s = await startTestServer();
  const clock = wallClock();
  s.server.aggregate(new MetricsServer({ bus: s.server.bus, clock }));
  const agent = new NodeAgent({ bus: s.server.bus, clock, random: seededRandom(5), nodeName: NODE, options: { nodeLabels: { pool: 'metrics' } } });
  try {
    await agent.start();
    const json = async (path: string, headers: Record<string, string> = {}) => {
      const r = await s.request('GET', path, { headers });
      return { status: r.status, body: JSON.parse(r.body) as Rec };
    };
    const groups = (await json('/apis')).body.groups as Rec[];
    assert.equal(groups.find((g) => g.name === 'metrics.k8s.io')?.preferredVersion, { groupVersion: 'metrics.k8s.io/v1beta1', version: 'v1beta1' });
    const aggregated = (await json('/apis', { accept: AGGREGATED })).body.items as Rec[];
    const metrics = aggregated.find((g) => g.metadata.name === 'metrics.k8s.io')!;
    assert.equal(metrics.versions[0].resources.map((r: Rec) => [r.resource, r.responseKind.kind, r.scope, r.verbs]),
      [['nodes', 'NodeMetrics', 'Cluster', ['get', 'list']], ['pods', 'PodMetrics', 'Namespaced', ['get', 'list']]]);

    const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'busy', namespace: 'default', labels: { app: 'busy' }, annotations: { [CPU_USAGE]: '1500m', [MEMORY_USAGE]: '3Gi' } },
      spec: { nodeName: NODE, containers: [{ name: 'main', image: 'nginx', resources: { requests: { cpu: '1', memory: '1Gi' } } }] } };
    assert.is((await s.request('POST', '/api/v1/namespaces/default/pods', { body: JSON.stringify(pod), headers: { 'content-type': 'application/json' } })).status, 201);
    const listed = await eventually('the pod in its metrics', async () => {
      const r = await json('/apis/metrics.k8s.io/v1beta1/namespaces/default/pods');
      return r.body.items?.length === 1 ? r.body : undefined;
    });
    assert.is(listed.kind, 'PodMetricsList');
    const item = listed.items[0] as Rec;
    assert.equal([item.kind, item.apiVersion, item.metadata.name, item.metadata.namespace, item.metadata.labels, item.window],
      ['PodMetrics', 'metrics.k8s.io/v1beta1', 'busy', 'default', { app: 'busy' }, '15s']);
    assert.is(Date.parse(item.timestamp) % 15_000, 0, 'the timestamp is a step of the resolution grid');
    assert.equal(item.containers, [{ name: 'main', usage: { cpu: '1500m', memory: '3Gi' } }]);
    assert.equal((await json('/apis/metrics.k8s.io/v1beta1/namespaces/default/pods/busy')).body.containers, item.containers);
    assert.is((await json('/apis/metrics.k8s.io/v1beta1/pods?labelSelector=app%3Dother')).body.items.length, 0);

    const node = (await json(`/apis/metrics.k8s.io/v1beta1/nodes/${NODE}`)).body;
    assert.equal([node.kind, node.metadata.labels.pool, node.usage], ['NodeMetrics', 'metrics', { cpu: '1500m', memory: '3Gi' }]);
    assert.is((await json('/apis/metrics.k8s.io/v1beta1/nodes?labelSelector=pool%3Dmetrics')).body.items.length, 1);
    assert.is((await json('/apis/metrics.k8s.io/v1beta1/nodes?labelSelector=pool%3Dother')).body.items.length, 0);

    const missing = await json('/apis/metrics.k8s.io/v1beta1/nodes/nowhere');
    assert.equal([missing.status, missing.body.reason, missing.body.message, missing.body.details], [404, 'NotFound',
      'nodemetrics.metrics.k8s.io "nowhere" not found', { name: 'nowhere', group: 'metrics.k8s.io', kind: 'nodemetrics' }]);
    assert.is((await json('/apis/metrics.k8s.io/v1beta1/namespaces/default/pods/gone')).body.message, 'podmetrics.metrics.k8s.io "default/gone" not found');
    assert.is((await json('/apis/metrics.k8s.io/v1beta1/nodes?watch=true')).status, 405);
    assert.is((await s.request('DELETE', `/apis/metrics.k8s.io/v1beta1/nodes/${NODE}`)).status, 405);
    assert.is((await json('/apis/metrics.k8s.io/v1beta1/widgets')).status, 404);
  } finally {
    agent.stop();
    await s.stop();
  }
});

test.run();
