// kubectl rollout against `orchsim serve` (simulated nodes, scheduler and controller manager), each
// answer as a real cluster gives it: history lists the revisions the Deployment controller numbered,
// undo goes back to the previous or a chosen template and the reused revision is renumbered,
// pause holds undo and restart back, and restart rolls out a new revision.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startServer } from '../../sim/cli/serve.ts';
import { freePort, kubectl as run } from '../helpers/real-time.ts';

type Ctx = { dir: string; kubeconfig: string; stop: () => Promise<void> };
const rollout = suite<Ctx>('kubectl-rollout');

rollout.before(async (ctx) => {
  ctx.dir = mkdtempSync(join(tmpdir(), 'orchsim-rollout-'));
  ctx.kubeconfig = join(ctx.dir, 'kubeconfig');
  const port = await freePort();
  const running = await startServer(['--secure-port', String(port), '--bind-address', '127.0.0.1', '--cert-dir', join(ctx.dir, 'certs'),
    '--kubeconfig-out', ctx.kubeconfig, '--seed', '3', '--nodes', '2'], 'serve', () => {});
  ctx.stop = () => running.stop();
});
rollout.after(async (ctx) => {
  await ctx.stop();
  rmSync(ctx.dir, { recursive: true, force: true });
});

const kubectl = (ctx: Ctx, args: string[]) => run(ctx.kubeconfig, ['--cache-dir', join(ctx.dir, 'cache'), ...args]);
async function ok(ctx: Ctx, args: string[]): Promise<string> {
  const r = await kubectl(ctx, args);
  assert.is(r.code, 0, `kubectl ${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
}
async function fails(ctx: Ctx, args: string[]): Promise<string> {
  const r = await kubectl(ctx, args);
  assert.is(r.code, 1, `kubectl ${args.join(' ')} should fail: ${r.stdout}`);
  return r.stderr;
}

/** Waits for the rollout as a user does; its last line is what a real cluster prints at the end. */
async function rolledOut(ctx: Ctx): Promise<void> {
  const out = await ok(ctx, ['rollout', 'status', 'deployment/web', '--timeout=60s']);
  assert.is(out.trim().split('\n').at(-1), 'deployment "web" successfully rolled out');
}

/** `rollout history` as rows of [revision, change-cause], after checking the header. */
async function history(ctx: Ctx): Promise<string[][]> {
  const [title, header, ...rows] = (await ok(ctx, ['rollout', 'history', 'deployment/web'])).trimEnd().split('\n');
  assert.is(title, 'deployment.apps/web ');
  assert.is(header, 'REVISION  CHANGE-CAUSE');
  return rows.map((r) => r.split(/\s{2,}/));
}

const image = async (ctx: Ctx) => ok(ctx, ['get', 'deployment', 'web', '-o', 'jsonpath={.spec.template.spec.containers[0].image}']);

rollout('create and two set images give revisions 1 to 3, each set annotated with its change-cause', async (ctx) => {
  assert.is(await ok(ctx, ['create', 'deployment', 'web', '--image=nginx:1', '--replicas=2']), 'deployment.apps/web created\n');
  await rolledOut(ctx);
  for (const tag of ['2', '3']) {
    assert.is(await ok(ctx, ['set', 'image', 'deployment/web', `nginx=nginx:${tag}`]), 'deployment.apps/web image updated\n');
    await ok(ctx, ['annotate', 'deployment/web', `kubernetes.io/change-cause=to nginx:${tag}`]);
    await rolledOut(ctx);
  }
  assert.equal(await history(ctx), [['1', '<none>'], ['2', 'to nginx:2'], ['3', 'to nginx:3']]);
  assert.is(await ok(ctx, ['get', 'deployment', 'web', '-o', 'jsonpath={.metadata.annotations.deployment\\.kubernetes\\.io/revision}']), '3');
});

rollout('undo goes back to the previous template, whose revision becomes 4', async (ctx) => {
  assert.is(await ok(ctx, ['rollout', 'undo', 'deployment/web']), 'deployment.apps/web rolled back\n');
  await rolledOut(ctx);
  assert.is(await image(ctx), 'nginx:2');
  assert.equal(await history(ctx), [['1', '<none>'], ['3', 'to nginx:3'], ['4', 'to nginx:2']]);
  const four = await ok(ctx, ['rollout', 'history', 'deployment/web', '--revision=4']);
  assert.match(four, /^deployment\.apps\/web with revision #4\nPod Template:\n/);
  assert.match(four, /Image:\tnginx:2\n/);
  const sets = await ok(ctx, ['get', 'rs', '-o', 'jsonpath={range .items[*]}{.spec.template.spec.containers[0].image} {.metadata.annotations.deployment\\.kubernetes\\.io/revision-history}{"\\n"}{end}']);
  assert.equal(sets.trim().split('\n').map((l) => l.trim()).sort(), ['nginx:1', 'nginx:2 2', 'nginx:3'], 'three sets: the nginx:2 one reused, its old number kept');
});

rollout('undo --to-revision=1 goes to the first template; a missing or current revision changes nothing', async (ctx) => {
  assert.is(await ok(ctx, ['rollout', 'undo', 'deployment/web', '--to-revision=1']), 'deployment.apps/web rolled back\n');
  await rolledOut(ctx);
  assert.is(await image(ctx), 'nginx:1');
  assert.equal(await history(ctx), [['3', 'to nginx:3'], ['4', 'to nginx:2'], ['5', '<none>']]);
  assert.is(await fails(ctx, ['rollout', 'undo', 'deployment/web', '--to-revision=99']), 'error: unable to find specified revision 99 in history\n');
  assert.is(await ok(ctx, ['rollout', 'undo', 'deployment/web', '--to-revision=5']), 'deployment.apps/web skipped rollback (current template already matches revision 5)\n');
  assert.equal((await history(ctx)).map(([revision]) => revision), ['3', '4', '5']);
});

rollout('paused, undo and restart are refused; resumed, restart rolls out revision 6 with restartedAt', async (ctx) => {
  assert.is(await ok(ctx, ['rollout', 'pause', 'deployment/web']), 'deployment.apps/web paused\n');
  assert.is(await fails(ctx, ['rollout', 'undo', 'deployment/web']),
    "error: you cannot rollback a paused deployment; resume it first with 'kubectl rollout resume' and try again\n");
  assert.is(await fails(ctx, ['rollout', 'restart', 'deployment/web']),
    'error: deployments.apps "web" can\'t restart paused deployment (run rollout resume first)\n');
  assert.is(await ok(ctx, ['rollout', 'resume', 'deployment/web']), 'deployment.apps/web resumed\n');
  assert.is(await ok(ctx, ['rollout', 'restart', 'deployment/web']), 'deployment.apps/web restarted\n');
  await rolledOut(ctx);
  assert.equal((await history(ctx)).map(([revision]) => revision), ['3', '4', '5', '6']);
  const restartedAt = await ok(ctx, ['get', 'deployment', 'web', '-o', 'jsonpath={.spec.template.metadata.annotations.kubectl\\.kubernetes\\.io/restartedAt}']);
  assert.match(restartedAt, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
  const pods = await ok(ctx, ['get', 'pods', '-l', 'app=web', '-o', 'jsonpath={range .items[*]}{.metadata.annotations.kubectl\\.kubernetes\\.io/restartedAt}{"\\n"}{end}']);
  assert.ok(pods.trim().split('\n').includes(restartedAt), 'the new pods carry the restart time');
  assert.is(await image(ctx), 'nginx:1');
});

rollout.run();
