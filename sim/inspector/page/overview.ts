// The overview: the cluster's headline figures and, for each machine, its actors per state, each
// count a link to the list of those actors. Read from the summary alone.
import type { Summary } from './api.ts';
import { h } from './dom.ts';

const top = (state: string) => state.split('.')[0]!;

function sumWhere(states: Record<string, number> | undefined, keep: (state: string) => boolean): number {
  let n = 0;
  for (const [state, count] of Object.entries(states ?? {})) if (keep(state)) n += count;
  return n;
}

function byTop(states: Record<string, number> | undefined): [string, number][] {
  const out = new Map<string, number>();
  for (const [state, n] of Object.entries(states ?? {})) out.set(top(state), (out.get(top(state)) ?? 0) + n);
  return [...out].sort(([a], [b]) => a.localeCompare(b));
}

function card(figure: string, what: string): HTMLElement {
  return h('div', { class: 'card' }, h('div', { class: 'figure' }, figure), h('div', { class: 'what' }, what));
}

export function renderOverview(summary: Summary): HTMLElement {
  const m = summary.machines;
  const nodes = sumWhere(m.node, () => true);
  const ready = sumWhere(m['node-health'], (s) => top(s) === 'Ready');
  const pods = byTop(m.pod);
  const zones = byTop(m.zone);
  const leaders = sumWhere(m.leader, (s) => top(s) === 'Leader');
  const cards = h('div', { class: 'cards', 'data-testid': 'headline' },
    card(`${ready} of ${nodes}`, 'nodes Ready'),
    ...pods.map(([phase, n]) => card(String(n), `pods ${phase}`)),
    card(zones.map(([s, n]) => `${n} ${s}`).join(', ') || 'none', 'zones'),
    card(String(leaders), 'leaders holding a lock'),
    card(String(summary.actors), 'actors'));
  const tables = Object.entries(m).map(([machine, states]) => h('table', { 'data-machine': machine },
    h('thead', {}, h('tr', {}, h('th', {}, h('a', { href: `#/actors?machine=${encodeURIComponent(machine)}` }, machine)), h('th', { class: 'n' }, 'actors'))),
    h('tbody', {}, ...Object.entries(states).map(([state, n]) => h('tr', {},
      h('td', {}, h('a', { href: `#/actors?machine=${encodeURIComponent(machine)}&state=${encodeURIComponent(state)}` }, state)),
      h('td', { class: 'n' }, n))))));
  return h('section', {}, h('h1', {}, 'Overview'), cards, h('h2', {}, 'Actors per machine and state'), h('div', { class: 'machines' }, ...tables));
}
