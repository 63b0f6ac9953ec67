// The inspector's page: an overview, the actor list, one actor's page and the sequence view,
// routed by the URL's hash (#/, #/actors?machine=&state=&q=, #/actor/<id>, #/sequence), kept up
// to date by the live updates.
import { api, type ActorDetail, type MachineDefinition, type NodeAgentState, type Summary } from './api.ts';
import { renderActorList, type ListQuery } from './actor-list.ts';
import { h, virtualTime } from './dom.ts';
import { renderOverview } from './overview.ts';
import { activePaths, renderStatechart } from './statechart.ts';
import { startTimebar } from './timebar.ts';
import { on, startLive, watch } from './live.ts';
import { eventLabel, followActor, renderSequence } from './sequence.ts';

/** The sequence view reads its records again at most this often while time moves. */
const SEQUENCE_REFRESH_MS = 1_000;

const main = document.getElementById('main')!;

const definitions = new Map<string, Promise<MachineDefinition>>();
let machines: string[] = [];
/** Ends the current view's refreshing. */
let leave: () => void = () => {};

function definition(machine: string): Promise<MachineDefinition> {
  let d = definitions.get(machine);
  if (!d) definitions.set(machine, (d = api<MachineDefinition>(`machines/${encodeURIComponent(machine)}`)));
  return d;
}

/** Shows each update of `type` with `render` (the first read over HTTP, so the view shows at once); returns the way to stop. */
function live<T>(type: string, first: () => Promise<T>, render: (value: T) => Promise<void> | void): () => void {
  let stopped = false;
  let queue = Promise.resolve();
  const take = (value: T) => {
    queue = queue.then(async () => {
      if (!stopped) await render(value);
    }).catch((e: Error) => show(h('p', { class: 'error' }, e.message)));
  };
  first().then(take, (e: Error) => show(h('p', { class: 'error' }, e.message)));
  const off = on(type, (m) => take(m as T));
  const offError = on('error', (m) => show(h('p', { class: 'error' }, String(m.message))));
  return () => {
    stopped = true;
    off();
    offError();
  };
}

function show(...content: HTMLElement[]): void {
  main.replaceChildren(...content);
}

function overview(): () => void {
  watch({ watch: 'summary' });
  return live<Summary>('summary', () => api<Summary>('summary'), (summary) => {
    machines = Object.keys(summary.machines);
    show(renderOverview(summary));
  });
}

function actorList(params: URLSearchParams): () => void {
  watch({ watch: 'none' });
  const query: ListQuery = {};
  for (const key of ['machine', 'state', 'node', 'q'] as const) {
    const v = params.get(key);
    if (v) query[key] = v;
  }
  const go = (q: ListQuery) => { location.hash = `#/actors?${new URLSearchParams({ ...q })}`; };
  let list: ReturnType<typeof renderActorList> | undefined;
  void (async () => {
    if (machines.length === 0) machines = Object.keys((await api<Summary>('summary')).machines);
    list = renderActorList(query, machines, go);
    show(list.element);
    list.element.querySelector('input')?.focus();
  })().catch((e: Error) => show(h('p', { class: 'error' }, e.message)));
  return () => list?.dispose();
}

/** Under `orchsim serve`, a node's pages carry a control to stop its agent or start it again. */
function nodeControl(id: string): HTMLElement | undefined {
  const name = /^(?:node|node-health)\/(.+)$/.exec(id)?.[1];
  if (name === undefined) return undefined;
  const slot = h('div', { class: 'control', 'data-testid': 'node-control' });
  const draw = (node: NodeAgentState) => {
    const action = node.agent === 'running' ? 'stop' : 'start';
    const button = h('button', { type: 'button' }, node.agent === 'running' ? `Stop ${name}'s agent` : `Start ${name}'s agent`);
    button.addEventListener('click', () => {
      button.disabled = true;
      api<NodeAgentState>(`nodes/${encodeURIComponent(name)}`, { action }).then(draw, (e: Error) => slot.replaceChildren(h('span', { class: 'error' }, e.message)));
    });
    slot.replaceChildren(h('span', { class: 'muted' }, `agent ${node.agent} `), button);
  };
  api<{ nodes: NodeAgentState[] }>('nodes').then(({ nodes }) => {
    const node = nodes.find((n) => n.name === name);
    if (node) draw(node);
  }, () => {});
  return slot;
}

function actorPage(id: string): () => void {
  const chartSlot = h('div');
  const state = h('span', { 'data-testid': 'actor-state' });
  const records = h('tbody');
  const context = h('pre', { 'data-testid': 'actor-context' });
  const follow = h('button', { type: 'button', 'data-testid': 'follow', title: 'follow this actor in the sequence view' }, 'Add to sequence');
  follow.addEventListener('click', () => {
    follow.disabled = true;
    followActor(id).then(() => { location.hash = '#/sequence'; }, (e: Error) => { follow.replaceWith(h('span', { class: 'error' }, e.message)); });
  });
  const page = h('section', {},
    h('h1', {}, id, ' ', h('span', { class: 'muted' }, 'in '), state, ' ', follow),
    nodeControl(id),
    h('div', { class: 'actor' }, chartSlot,
      h('div', {}, h('h2', {}, 'Newest transitions'), h('table', {}, h('thead', {}, h('tr', {}, h('th', {}, 't'), h('th', {}, 'event'), h('th', {}, 'from → to'))), records),
        h('h2', {}, 'Context'), context)));
  let drawn: string | undefined;
  watch({ watch: 'actor', id });
  return live<ActorDetail>('actor', () => api<ActorDetail>(`actors/${encodeURIComponent(id)}`), async (actor) => {
    if (actor.id !== id) return;
    if (!page.isConnected) show(page);
    state.textContent = actor.state;
    if (drawn === undefined) {
      chartSlot.replaceChildren(await renderStatechart(await definition(actor.machine), actor.state, actor.delays));
      drawn = actor.state;
    } else if (drawn !== actor.state) {
      const active = activePaths(actor.state);
      for (const g of chartSlot.querySelectorAll<SVGGElement>('g.state')) g.classList.toggle('active', active.has(g.dataset.state!));
      chartSlot.querySelector<HTMLElement>('[data-testid=statechart]')!.dataset.state = actor.state;
      drawn = actor.state;
    }
    records.replaceChildren(...actor.records.slice().reverse().map((r) => h('tr', {},
      h('td', { class: 'n' }, virtualTime(r.t)),
      h('td', {}, r.kind === 'transition' ? `${eventLabel(r.event!)}${r.sender ? ` from ${r.sender}` : ''}` : r.kind === 'actor' ? '(started)' : '(stopped)'),
      h('td', {}, r.kind === 'transition' ? `${r.from} → ${r.to}` : r.to ?? ''))));
    context.textContent = actor.context === null ? 'not kept: the actor hibernates, or is an object driven by pure transitions' : JSON.stringify(actor.context, null, 2);
  });
}

function sequence(): () => void {
  watch({ watch: 'none' });
  const view = renderSequence((id) => { location.hash = `#/actor/${encodeURIComponent(id)}`; });
  show(view.element);
  let last = 0;
  let timeMs: unknown;
  const off = on('time', (m) => {
    if (m.timeMs === timeMs || performance.now() - last < SEQUENCE_REFRESH_MS) return;
    timeMs = m.timeMs;
    last = performance.now();
    view.refresh();
  });
  return off;
}

function route(): void {
  leave();
  const hash = location.hash.slice(1) || '/';
  const [path, search = ''] = hash.split('?');
  if (path!.startsWith('/actor/')) leave = actorPage(decodeURIComponent(path!.slice('/actor/'.length)));
  else if (path === '/actors') leave = actorList(new URLSearchParams(search));
  else if (path === '/sequence') leave = sequence();
  else leave = overview();
}

window.addEventListener('hashchange', route);
// A move in time shows at once: the view reads the run again.
startTimebar(document.getElementById('clock')!, () => route());
startLive();
route();
