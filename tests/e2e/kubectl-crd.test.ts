// CustomResourceDefinitions through the real kubectl, as a controller's `make install` and its
// users drive them: apply and wait for Established, custom objects applied (client side and
// server side), printed by their columns, found by short name and category, explained, scaled,
// and taken away with their definition.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { stringify as toYaml } from 'yaml';
import { kubectlFails as fails, kubectlOk as ok, startTestServer, type TestServer } from '../helpers/api-server.ts';

type Ctx = { s: TestServer };
const crd = suite<Ctx>('kubectl-crd');

crd.before(async (ctx) => {
  ctx.s = await startTestServer();
});
crd.after(async (ctx) => {
  await ctx.s.stop();
});

const DEFINITION = {
  apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'crontabs.stable.example.com' },
  spec: {
    group: 'stable.example.com', scope: 'Namespaced',
    names: { plural: 'crontabs', singular: 'crontab', kind: 'CronTab', shortNames: ['ct'], categories: ['all'] },
    versions: [{
      name: 'v1', served: true, storage: true,
      subresources: { status: {}, scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas' } },
      additionalPrinterColumns: [
        { name: 'Spec', type: 'string', jsonPath: '.spec.cronSpec', description: 'The cron spec defining the interval a CronJob is run' },
        { name: 'Replicas', type: 'integer', jsonPath: '.spec.replicas' },
        { name: 'Image', type: 'string', jsonPath: '.spec.image', priority: 1 },
        { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
      ],
      schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: {
        cronSpec: { type: 'string', pattern: '^(\\d+|\\*)(/\\d+)?(\\s+(\\d+|\\*)(/\\d+)?){4}$', description: 'When to run, in cron syntax.' },
        image: { type: 'string' },
        replicas: { type: 'integer', minimum: 1, maximum: 10, default: 1 },
      } }, status: { type: 'object', properties: { replicas: { type: 'integer' } } } } } },
    }],
  },
};

const cronTab = (name: string, spec: object) => toYaml({ apiVersion: 'stable.example.com/v1', kind: 'CronTab', metadata: { name }, spec });

crd('apply, then kubectl wait sees the definition Established', async (ctx) => {
  assert.is(await ok(ctx, ['apply', '-f', '-'], toYaml(DEFINITION)), 'customresourcedefinition.apiextensions.k8s.io/crontabs.stable.example.com created\n');
  assert.is(await ok(ctx, ['wait', '--for', 'condition=Established', 'crd/crontabs.stable.example.com', '--timeout=30s']),
    'customresourcedefinition.apiextensions.k8s.io/crontabs.stable.example.com condition met\n');
  const resources = await ok(ctx, ['api-resources', '--api-group=stable.example.com']);
  assert.match(resources, /crontabs\s+ct\s+stable.example.com\/v1\s+true\s+CronTab/);
});

crd('custom objects apply, print their columns and default what the schema defaults', async (ctx) => {
  assert.is(await ok(ctx, ['apply', '-f', '-'], cronTab('nightly', { cronSpec: '0 3 * * *', image: 'backup:1' })), 'crontab.stable.example.com/nightly created\n');
  const table = await ok(ctx, ['get', 'crontabs']);
  assert.match(table, /^NAME\s+SPEC\s+REPLICAS\s+AGE\n/);
  assert.match(table, /nightly\s+0 3 \* \* \*\s+1\s+\d+s/);
  assert.match(await ok(ctx, ['get', 'ct', '-o', 'wide']), /IMAGE[\s\S]*backup:1/);
  // Client-side apply again: a merge patch, since nothing tells kubectl how a CronTab's lists merge.
  assert.is(await ok(ctx, ['apply', '-f', '-'], cronTab('nightly', { cronSpec: '0 4 * * *', image: 'backup:1' })), 'crontab.stable.example.com/nightly configured\n');
  assert.is(await ok(ctx, ['get', 'ct', 'nightly', '-o', 'jsonpath={.spec.cronSpec} {.metadata.generation}']), '0 4 * * * 2');
  assert.is(await ok(ctx, ['apply', '--server-side', '-f', '-'], cronTab('hourly', { cronSpec: '0 * * * *' })), 'crontab.stable.example.com/hourly serverside-applied\n');
});

crd('a value the schema refuses is a 422 kubectl prints as the real server words it', async (ctx) => {
  const out = await fails(ctx, ['apply', '-f', '-'], cronTab('bad', { cronSpec: 'every day', replicas: 20 }));
  assert.match(out, /The CronTab "bad" is invalid: /);
  assert.match(out, /spec.cronSpec: Invalid value: "every day": spec.cronSpec in body should match/);
  assert.match(out, /spec.replicas: Invalid value: 20: spec.replicas in body should be less than or equal to 10/);
});

crd('the category all, explain and scale work on custom objects', async (ctx) => {
  assert.match(await ok(ctx, ['get', 'all']), /crontab.stable.example.com\/nightly/);
  assert.match(await ok(ctx, ['explain', 'crontab.spec.cronSpec']), /When to run, in cron syntax\./);
  assert.is(await ok(ctx, ['scale', 'crontab', 'nightly', '--replicas=3']), 'crontab.stable.example.com/nightly scaled\n');
  assert.is(await ok(ctx, ['get', 'ct', 'nightly', '-o', 'jsonpath={.spec.replicas}']), '3');
});

crd('deleting the definition deletes its objects and the type is served no more', async (ctx) => {
  assert.is(await ok(ctx, ['delete', 'crd', 'crontabs.stable.example.com']), 'customresourcedefinition.apiextensions.k8s.io "crontabs.stable.example.com" deleted\n');
  assert.match(await fails(ctx, ['get', 'crontabs', '--cache-dir', `${ctx.s.dir}/fresh-cache`]), /the server doesn't have a resource type "crontabs"/);
  assert.is(await ok(ctx, ['get', 'crd', '-o', 'name']), '');
});

crd.run();
