// A simulated cluster on virtual time for controller tests: the scenario's nodes (three 8-CPU
// nodes unless given) with every component, a test client, and `run(ms)`, which moves virtual time
// on; five seconds have passed on return, so the nodes are Ready.
import { ApiClient } from '../../actors/client/client.ts';
import { SimCluster } from '../../sim/cluster.ts';
import { parseScenario } from '../../sim/scenario/load.ts';

const THREE_NODES = 'duration: 1h\nnodePools: [{ name: n, count: 3, capacity: { cpu: "8", memory: 32Gi } }]\n';

export async function simCluster(scenario = THREE_NODES) {
  const c = new SimCluster(parseScenario(scenario, { name: 'test', dir: '.' }), 1);
  await c.start();
  const client = new ApiClient(c.bus, 'test');
  const run = (ms: number) => c.kernel.run({ until: c.clock.now() + ms });
  await run(5_000);
  return { c, client, run };
}
