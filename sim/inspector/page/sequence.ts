// The sequence view: the events passed between a few chosen actors over a time range, drawn as a
// sequence diagram. Each chosen actor is a lane, and so is each other actor or component that
// sent them something or that they sent to (the API server, above all); time runs down the page.
// An arrow is an event from its sender to the actor it changed, or a request an actor sent; an
// event with no sender (the actor's own timer, an answer to its own request) loops on its lane.
import { api, type SequenceAnswer, type SequenceRecord } from './api.ts';
import { h, s, virtualTime } from './dom.ts';
import { parseTime } from './timebar.ts';

const LANE_PX = 190;
const ROW_PX = 26;
const TIME_PX = 84;
const HEAD_PX = 44;
const CHAR_PX = 6.4;

/** XState's delayed events as a label: `xstate.after.graceLeftMs.node-health.Ready.Heard` → `after graceLeftMs`; `xstate.done.actor.register` → `done register`. */
export function eventLabel(event: string): string {
  if (event.startsWith('xstate.after.')) return `after ${event.split('.')[2]}`;
  if (event.startsWith('xstate.done.actor.')) return `done ${event.slice('xstate.done.actor.'.length)}`;
  if (event.startsWith('xstate.error.actor.')) return `error ${event.slice('xstate.error.actor.'.length)}`;
  return event;
}

/** A request as a label: `PUT /apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases/n1` → `PUT leases/n1`. */
export function requestLabel(event: string): string {
  const [method, path = ''] = event.split(' ');
  let parts = path.split('/').filter(Boolean);
  parts = parts.slice(parts[0] === 'api' ? 2 : parts[0] === 'apis' ? 3 : 0);
  if (parts[0] === 'namespaces' && parts.length > 2) parts = parts.slice(2);
  return `${method} ${parts.join('/') || path}`;
}

/** The lanes: the chosen actors in their order, then everyone else the records name, in order of appearance. */
export function lanesOf(answer: SequenceAnswer): string[] {
  const lanes = [...answer.actors];
  const add = (id: string | undefined) => { if (id !== undefined && !lanes.includes(id)) lanes.push(id); };
  for (const r of answer.records) {
    add(r.id);
    if (r.kind === 'transition') add(r.sender);
    if (r.kind === 'send') add(r.target);
  }
  return lanes;
}

function fit(text: string, px: number): string {
  const n = Math.floor(px / CHAR_PX);
  return text.length <= n ? text : `${text.slice(0, Math.max(1, n - 1))}…`;
}

export function renderDiagram(answer: SequenceAnswer, onActor: (id: string) => void): SVGElement {
  const lanes = lanesOf(answer);
  const x = (id: string) => TIME_PX + lanes.indexOf(id) * LANE_PX + LANE_PX / 2;
  const height = HEAD_PX + answer.records.length * ROW_PX + 12;
  const width = TIME_PX + lanes.length * LANE_PX;
  const svg = s('svg', { width, height, viewBox: `0 0 ${width} ${height}`, 'data-testid': 'sequence-diagram', role: 'img', 'aria-label': `events between ${answer.actors.join(', ')}` });
  svg.append(s('defs', {}, s('marker', { id: 'arrow', viewBox: '0 0 10 10', refX: 9, refY: 5, markerWidth: 7, markerHeight: 7, orient: 'auto-start-reverse' },
    s('path', { d: 'M0,0 L10,5 L0,10 z', fill: '#4a5568' }))));
  lanes.forEach((id, i) => {
    const chosen = answer.actors.includes(id);
    const head = s('g', { class: `lane${chosen ? ' chosen' : ''}`, 'data-lane': id },
      s('line', { x1: x(id), x2: x(id), y1: HEAD_PX - 6, y2: height, class: 'life' }),
      s('rect', { x: TIME_PX + i * LANE_PX + 6, y: 4, width: LANE_PX - 12, height: HEAD_PX - 14, rx: 4 }),
      s('text', { x: x(id), y: HEAD_PX / 2 + 1, 'text-anchor': 'middle' }, fit(id, LANE_PX - 20)),
      s('title', {}, id));
    if (id.includes('/')) head.addEventListener('click', () => onActor(id));
    svg.append(head);
  });
  answer.records.forEach((r, row) => svg.append(recordRow(r, HEAD_PX + row * ROW_PX + ROW_PX / 2 + 4, x)));
  return svg;
}

function recordRow(r: SequenceRecord, y: number, x: (id: string) => number): SVGElement {
  const g = s('g', { class: `rec ${r.kind}`, 'data-kind': r.kind, 'data-id': r.id, 'data-t': r.t });
  g.append(s('text', { x: TIME_PX - 8, y: y + 4, 'text-anchor': 'end', class: 't' }, virtualTime(r.t)));
  const at = x(r.id);
  if (r.kind === 'actor' || r.kind === 'stop') {
    const label = r.kind === 'actor' ? `start · ${r.to}` : 'stop';
    g.append(s('rect', { x: at - LANE_PX / 2 + 14, y: y - 9, width: LANE_PX - 28, height: 18, rx: 9, class: 'mark' }),
      s('text', { x: at, y: y + 4, 'text-anchor': 'middle' }, fit(label, LANE_PX - 36)));
    return g;
  }
  const from = r.kind === 'send' ? at : r.sender !== undefined ? x(r.sender) : undefined;
  const to = r.kind === 'send' ? x(r.target) : at;
  const label = r.kind === 'send' ? requestLabel(r.event) : `${eventLabel(r.event)} · ${r.from} → ${r.to}`;
  if (r.kind === 'transition') g.dataset.event = r.event;
  if (r.kind === 'transition' && r.sender !== undefined) g.dataset.sender = r.sender;
  g.append(s('title', {}, r.kind === 'send' ? `${r.id} sent ${r.event}` : `${r.id}: ${r.event}${r.sender ? ` from ${r.sender}` : ''}, ${r.from} → ${r.to}`));
  if (from === undefined || from === to) {
    // Its own: a loop on its lane, the label beside it.
    g.append(s('path', { d: `M${to},${y - 7} h16 v12 h-14`, class: 'self', 'marker-end': 'url(#arrow)' }),
      s('text', { x: to + 20, y: y + 4 }, fit(label, LANE_PX * 1.4)));
    return g;
  }
  const left = Math.min(from, to);
  g.append(s('line', { x1: from, x2: to, y1: y, y2: y, class: r.kind === 'send' ? 'request' : 'event', 'marker-end': 'url(#arrow)' }),
    s('text', { x: left + 8, y: y - 4 }, fit(label, Math.max(Math.abs(to - from) - 12, LANE_PX - 20))));
  return g;
}

/** The view: the chosen actors (add, remove), the range, and the diagram, read again as the run moves. */
export function renderSequence(open: (id: string) => void): { element: HTMLElement; refresh(): void } {
  const chips = h('div', { class: 'chips', 'data-testid': 'sequence-actors' });
  const add = h('input', { type: 'search', placeholder: 'add an actor id: node/node-3, node-health/node-3…', list: 'sequence-ids', 'aria-label': 'add an actor' });
  const ids = h('datalist', { id: 'sequence-ids' });
  const from = h('input', { type: 'text', placeholder: 'from m:ss', class: 'time', 'aria-label': 'from' });
  const to = h('input', { type: 'text', placeholder: 'to m:ss', class: 'time', 'aria-label': 'to' });
  const requests = h('input', { type: 'checkbox', checked: '', 'aria-label': 'show requests' });
  const note = h('p', { class: 'muted', 'data-testid': 'sequence-note' });
  const error = h('p', { class: 'error' });
  const diagram = h('div', { class: 'sequence' });
  const element = h('section', {}, h('h1', {}, 'Sequence'),
    h('div', { class: 'filters' }, add, ids, from, to, h('label', {}, requests, ' requests to the API server')), chips, error, note, diagram);
  let actors: string[] = [];
  let last: SequenceAnswer | undefined;

  const choose = (next: string[]) => {
    api<SequenceAnswer>('sequence', { actors: next }, 'PUT').then(draw, (e: Error) => { error.textContent = e.message; });
  };
  const draw = (answer: SequenceAnswer) => {
    last = answer;
    error.textContent = '';
    actors = [...answer.actors];
    chips.replaceChildren(...actors.map((id) => h('span', { class: 'chip' }, h('a', { href: `#/actor/${encodeURIComponent(id)}` }, id),
      h('button', { type: 'button', 'aria-label': `remove ${id}`, onclick: () => choose(actors.filter((a) => a !== id)) }, '×'))));
    if (actors.length === 0) {
      note.textContent = 'Choose actors to follow: add their ids here, or press "Add to sequence" on an actor\'s page.';
      diagram.replaceChildren();
      return;
    }
    note.textContent = `${answer.records.length} records from ${virtualTime(answer.from)} to ${virtualTime(answer.to)}${answer.omitted ? `; the ${answer.omitted} earlier ones are left out (narrow the range)` : ''}${answer.keptSince !== undefined ? `; kept since ${virtualTime(answer.keptSince)}` : ''}.`;
    const shown = requests.checked ? answer : { ...answer, records: answer.records.filter((r) => r.kind !== 'send') };
    diagram.replaceChildren(renderDiagram(shown, open));
  };
  requests.addEventListener('change', () => { if (last) draw(last); });
  const range = () => {
    const q = new URLSearchParams();
    for (const [box, key] of [[from, 'from'], [to, 'to']] as const) {
      if (!box.value.trim()) continue;
      const ms = parseTime(box.value);
      if (ms === undefined) throw new Error(`${JSON.stringify(box.value)} is not a time: write m:ss, h:mm:ss or seconds`);
      q.set(key, String(ms));
    }
    return q;
  };
  const refresh = () => {
    let q: URLSearchParams;
    try {
      q = range();
    } catch (e) {
      error.textContent = (e as Error).message;
      return;
    }
    api<SequenceAnswer>(`sequence?${q}`).then(draw, (e: Error) => { error.textContent = e.message; });
  };
  add.addEventListener('keydown', (e) => {
    if ((e as KeyboardEvent).key !== 'Enter' || !add.value.trim()) return;
    const id = add.value.trim();
    add.value = '';
    if (!actors.includes(id)) choose([...actors, id]);
  });
  let typing: number | undefined;
  add.addEventListener('input', () => {
    clearTimeout(typing);
    typing = window.setTimeout(() => {
      if (!add.value.trim()) return;
      api<{ items: { id: string }[] }>(`actors?q=${encodeURIComponent(add.value.trim())}&limit=20`)
        .then(({ items }) => ids.replaceChildren(...items.map((i) => h('option', { value: i.id }))), () => {});
    }, 200);
  });
  for (const box of [from, to]) box.addEventListener('change', refresh);
  refresh();
  return { element, refresh };
}

/** Adds `id` to the chosen actors. */
export async function followActor(id: string): Promise<void> {
  const current = await api<SequenceAnswer>('sequence?limit=1');
  if (!current.actors.includes(id)) await api<SequenceAnswer>('sequence', { actors: [...current.actors, id] }, 'PUT');
}
