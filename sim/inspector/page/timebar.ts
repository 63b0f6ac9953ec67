// The header's time: under `orchsim run --ui`, the run's virtual time against its end, whether it
// runs, and the controls to run, pause, step one event, or go to a time (back included: the run
// is replayed to it); under `serve`, the time since the process began.
import { api } from './api.ts';
import { on } from './live.ts';
import { h, virtualTime } from './dom.ts';

interface TimeStatus { mode: 'virtual' | 'wall'; timeMs: number; endMs?: number; state: 'paused' | 'running' | 'ended'; replays?: number }

/** `6:50`, `1:02:03`, `410` (seconds), `410000ms` → virtual ms; undefined if it is none of these. */
export function parseTime(text: string): number | undefined {
  const t = text.trim();
  const ms = /^(\d+)ms$/.exec(t);
  if (ms) return Number(ms[1]);
  const parts = t.split(':');
  if (parts.length > 3 || parts.some((p) => !/^\d+(\.\d+)?$/.test(p))) return undefined;
  const seconds = parts.reduce((total, p) => total * 60 + Number(p), 0);
  return Math.round(seconds * 1000);
}

export function startTimebar(slot: HTMLElement, onMoved: () => void): void {
  const clock = h('span', { 'data-testid': 'time' });
  const state = h('span', { class: 'muted', 'data-testid': 'time-state' });
  const run = h('button', { type: 'button' }, 'Run');
  const pause = h('button', { type: 'button' }, 'Pause');
  const step = h('button', { type: 'button', title: 'fire the next event' }, 'Step');
  const to = h('input', { type: 'text', placeholder: 'm:ss', size: '7', 'aria-label': 'go to virtual time' });
  const go = h('button', { type: 'button' }, 'Go');
  const error = h('span', { class: 'error' });
  const controls = h('span', { class: 'timebar', hidden: '' }, run, pause, step, to, go, error);
  slot.replaceChildren(clock, ' ', state, controls);

  const act = (body: object) => {
    error.textContent = '';
    api<TimeStatus>('time', body).then((s) => { show(s); onMoved(); }, (e: Error) => { error.textContent = e.message; });
  };
  run.addEventListener('click', () => act({ action: 'run' }));
  pause.addEventListener('click', () => act({ action: 'pause' }));
  step.addEventListener('click', () => act({ action: 'step' }));
  const goTo = () => {
    const ms = parseTime(to.value);
    if (ms === undefined) error.textContent = `${JSON.stringify(to.value)} is not a time: write m:ss, h:mm:ss or seconds`;
    else act({ action: 'run', to: ms });
  };
  go.addEventListener('click', goTo);
  to.addEventListener('keydown', (e) => { if ((e as KeyboardEvent).key === 'Enter') goTo(); });

  const show = (s: TimeStatus) => {
    clock.textContent = s.mode === 'virtual' ? `${virtualTime(s.timeMs)} of ${virtualTime(s.endMs!)}` : `t = ${virtualTime(s.timeMs)}`;
    state.textContent = s.mode === 'virtual' ? s.state : '';
    controls.hidden = s.mode !== 'virtual';
    run.disabled = s.state !== 'paused';
    pause.disabled = s.state !== 'running';
    step.disabled = s.state !== 'paused';
  };
  api<TimeStatus>('time').then(show, () => {});
  on('time', (m) => show(m as unknown as TimeStatus));
}
