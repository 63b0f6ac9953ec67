// The planner's runs on several cores: a pool of worker processes (`orchsim __plan-worker`), each
// running one scenario at a time and answering with its figures over IPC. A run is a function of
// its scenario and seed, so results do not depend on which worker ran them or in what order.
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { RunFigures, Runner } from './plan.ts';
import { figuresOf } from './plan.ts';
import { runScenario } from './run.ts';
import type { Scenario } from './scenario/types.ts';

interface Job {
  id: number;
  scenario: Scenario;
  seed: number;
}

type Answer = { id: number; figures: RunFigures } | { id: number; error: string };

const CLI = fileURLToPath(new URL('./cli/orchsim.js', import.meta.url));

export interface WorkerPool {
  run: Runner;
  close(): void;
}

export function workerPool(size: number): WorkerPool {
  const idle: ChildProcess[] = [];
  const waiting: (() => void)[] = [];
  const pending = new Map<number, { resolve: (f: RunFigures) => void; reject: (e: Error) => void }>();
  let next = 0;
  const all = Array.from({ length: size }, () => {
    const child = fork(CLI, ['__plan-worker'], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'], serialization: 'advanced' });
    child.on('message', (a: Answer) => {
      const p = pending.get(a.id);
      pending.delete(a.id);
      idle.push(child);
      waiting.shift()?.();
      if ('error' in a) p?.reject(new Error(a.error));
      else p?.resolve(a.figures);
    });
    child.on('exit', (code) => {
      for (const p of pending.values()) p.reject(new Error(`a plan worker exited (code ${code}) with runs in flight`));
      pending.clear();
    });
    idle.push(child);
    return child;
  });
  const worker = async (): Promise<ChildProcess> => {
    while (idle.length === 0) await new Promise<void>((r) => waiting.push(r));
    return idle.shift()!;
  };
  return {
    async run(scenario, seed) {
      const child = await worker();
      const id = next++;
      return new Promise<RunFigures>((resolve, reject) => {
        pending.set(id, { resolve, reject });
        child.send({ id, scenario, seed } satisfies Job);
      });
    },
    close() {
      for (const child of all) child.kill();
    },
  };
}

/** The worker's side: runs each job it is sent and answers with the figures. */
export function serveWorker(): void {
  process.on('message', (job: Job) => {
    runScenario(job.scenario, { seed: job.seed })
      .then(({ report, checks, errors }) => process.send!({ id: job.id, figures: figuresOf(job.seed, report, checks, errors) } satisfies Answer))
      .catch((e: Error) => process.send!({ id: job.id, error: e.message } satisfies Answer));
  });
}
