// Measures (prints, does not assert) the heap a pod actor costs. Run with `node --expose-gc` for a
// steadier figure: `node --expose-gc --import ./sim/cli/register.js tests/machines/memory.test.ts`.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createActor, type Actor } from 'xstate';
import { podInput, podMachine } from '../../machines/pod.ts';
import { drawPodPlan, podStages } from '../../machines/stages.ts';
import { seededRandom } from '../../sim/random.ts';
import { machineClock } from '../helpers/machine-clock.ts';

const gc = (globalThis as { gc?: () => void }).gc;
const heapUsed = () => {
  gc?.();
  gc?.();
  return process.memoryUsage().heapUsed;
};

test('heap per pod actor, 20,000 running pods (printed)', () => {
  const n = 20_000;
  const table = podStages();
  const random = seededRandom(1);
  const plans = Array.from({ length: n }, () => podInput(drawPodPlan(table, random), 30, 1_000));
  const clock = machineClock();
  const before = heapUsed();
  const actors: Actor<typeof podMachine>[] = [];
  for (let i = 0; i < n; i++) actors.push(createActor(podMachine, { clock, id: `p${i}`, input: plans[i]! }).start());
  for (const a of actors) a.send({ type: 'BIND' });
  clock.advance(10_000);
  const after = heapUsed();
  assert.ok(actors.every((a) => (a.getSnapshot().value as { Running?: string }).Running === 'UntilDeleted'));
  console.log(`pod actors: ${n}, heap ${((after - before) / 1e6).toFixed(1)} MB, ${Math.round((after - before) / n)} B per actor (gc ${gc ? 'forced' : 'not available'}; plans allocated before)`);
});

test.run();
