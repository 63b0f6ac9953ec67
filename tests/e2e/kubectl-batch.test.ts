// Jobs and CronJobs with the real kubectl (and @kubernetes/client-node's BatchV1Api) against
// `orchsim serve --nodes 2`: `kubectl create job` runs to completion on the simulated nodes and
// `kubectl wait --for=condition=complete` sees it, `kubectl get jobs` and `get cronjobs` print the
// real columns, `kubectl create cronjob` and `kubectl create job --from=cronjob/...` work, and a
// bad schedule is refused with the server's message. The cluster runs ten times faster than the
// wall clock, so a Job's pods (5 s each) finish in half a second.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import * as k8s from '@kubernetes/client-node';
import { startServer } from '../../sim/cli/serve.ts';
import { eventually, freePort, kubectl } from '../helpers/real-time.ts';

test('kubectl creates, waits for and lists Jobs and CronJobs as on a real cluster', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'orchsim-batch-'));
  const kubeconfig = join(dir, 'kubeconfig');
  const port = await freePort();
  const running = await startServer(['--secure-port', String(port), '--bind-address', '127.0.0.1', '--cert-dir', join(dir, 'certs'),
    '--kubeconfig-out', kubeconfig, '--seed', '9', '--nodes', '2', '--speed', '10'], 'serve', () => {});
  const k = (args: string[]) => kubectl(kubeconfig, [...args, '--cache-dir', join(dir, 'cache')]);
  try {
    await eventually('the nodes Ready', async () => ((await k(['get', 'nodes'])).stdout.match(/ Ready /g)?.length === 2 ? true : undefined));

    const create = await k(['create', 'job', 'pi', '--image=busybox', '--', 'sh', '-c', 'echo done']);
    assert.equal([create.code, create.stdout.trim()], [0, 'job.batch/pi created'], create.stderr);
    const wait = await k(['wait', '--for=condition=complete', 'job/pi', '--timeout=60s']);
    assert.equal([wait.code, wait.stdout.trim()], [0, 'job.batch/pi condition met'], wait.stderr);
    const jobs = (await k(['get', 'jobs'])).stdout.split('\n');
    assert.match(jobs[0]!, /^NAME\s+STATUS\s+COMPLETIONS\s+DURATION\s+AGE$/);
    assert.match(jobs[1]!, /^pi\s+Complete\s+1\/1\s+\d+s\s+\d+s$/);
    const wide = (await k(['get', 'jobs', '-o', 'wide'])).stdout.split('\n');
    assert.match(wide[0]!, /CONTAINERS\s+IMAGES\s+SELECTOR$/);
    assert.match(wide[1]!, /\spi\s+busybox\s+batch\.kubernetes\.io\/controller-uid=[0-9a-f-]{36}$/);
    const pods = (await k(['get', 'pods', '-l', 'job-name=pi'])).stdout;
    assert.match(pods, /^pi-[a-z0-9]{5}\s+0\/1\s+Completed\s+0\s/m);
    const job = JSON.parse((await k(['get', 'job', 'pi', '-o', 'json'])).stdout);
    assert.equal(job.status.conditions.map((c: { type: string }) => c.type), ['SuccessCriteriaMet', 'Complete']);
    assert.equal([job.spec.backoffLimit, job.spec.completionMode, job.spec.template.spec.restartPolicy], [6, 'NonIndexed', 'Never']);

    const cron = await k(['create', 'cronjob', 'tick', '--image=busybox', '--schedule=*/1 * * * *']);
    assert.equal([cron.code, cron.stdout.trim()], [0, 'cronjob.batch/tick created'], cron.stderr);
    const cronjobs = (await k(['get', 'cronjobs'])).stdout.split('\n');
    assert.match(cronjobs[0]!, /^NAME\s+SCHEDULE\s+TIMEZONE\s+SUSPEND\s+ACTIVE\s+LAST SCHEDULE\s+AGE$/);
    assert.match(cronjobs[1]!, /^tick\s+\*\/1 \* \* \* \*\s+<none>\s+False\s+\d+\s+(<none>|\d+s)\s+\d+s$/);
    const manual = await k(['create', 'job', 'by-hand', '--from=cronjob/tick']);
    assert.equal([manual.code, manual.stdout.trim()], [0, 'job.batch/by-hand created'], manual.stderr);
    const fromCron = JSON.parse((await k(['get', 'job', 'by-hand', '-o', 'json'])).stdout);
    assert.is(fromCron.metadata.annotations['cronjob.kubernetes.io/instantiate'], 'manual');
    assert.equal(fromCron.metadata.ownerReferences.map((r: { kind: string; name: string }) => `${r.kind}/${r.name}`), ['CronJob/tick']);
    const byHand = await k(['wait', '--for=condition=complete', 'job/by-hand', '--timeout=60s']);
    assert.is(byHand.code, 0, byHand.stderr);
    // Six virtual seconds a wall second: the CronJob's first minute comes within ten.
    await eventually('a Job made by the CronJob', async () => ((await k(['get', 'jobs', '-o', 'name'])).stdout.match(/job\.batch\/tick-\d+/) ? true : undefined));

    const bad = await k(['create', 'cronjob', 'bad', '--image=busybox', '--schedule=* * *']);
    assert.is(bad.code, 1);
    assert.is(bad.stderr, 'error: failed to create cronjob: CronJob.batch "bad" is invalid: spec.schedule: Invalid value: "* * *": expected exactly 5 fields, found 3: [* * *]\n');

    const kc = new k8s.KubeConfig();
    kc.loadFromFile(kubeconfig);
    const batch = kc.makeApiClient(k8s.BatchV1Api);
    const listed = await batch.listNamespacedJob({ namespace: 'default' });
    assert.ok(listed.items.some((j) => j.metadata?.name === 'pi' && j.status?.succeeded === 1));
    const cjs = await batch.listNamespacedCronJob({ namespace: 'default' });
    assert.equal(cjs.items.map((c) => c.spec?.schedule), ['*/1 * * * *']);

    const deleted = await k(['delete', 'job', 'pi']);
    assert.is(deleted.code, 0, deleted.stderr);
    await eventually('the Job\'s pods gone', async () => ((await k(['get', 'pods', '-l', 'job-name=pi', '-o', 'name'])).stdout.trim() === '' ? true : undefined));
  } finally {
    await running.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
