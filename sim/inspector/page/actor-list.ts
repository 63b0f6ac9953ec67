// The actor list: a search and a machine filter over every actor, fetched a page at a time, in a
// virtualised list (@tanstack/virtual-core), so only the rows in view are in the document.
import { Virtualizer, elementScroll, observeElementOffset, observeElementRect } from '@tanstack/virtual-core';
import { api, type ActorPage, type ActorRow } from './api.ts';
import { h } from './dom.ts';

const ROW_PX = 28;

export interface ListQuery { machine?: string; state?: string; node?: string; q?: string }

export function renderActorList(query: ListQuery, machines: string[], go: (query: ListQuery) => void): { element: HTMLElement; dispose(): void } {
  const search = h('input', { type: 'search', placeholder: 'search ids: node-3, default/web, zone…', value: query.q ?? '', 'aria-label': 'search actors' });
  const machine = h('select', { 'aria-label': 'machine' }, h('option', { value: '' }, 'every machine'),
    ...machines.map((m) => { const o = h('option', { value: m }, m); if (m === query.machine) o.selected = true; return o; }));
  const node = h('input', { type: 'search', placeholder: 'node', value: query.node ?? '', 'aria-label': 'node', class: 'node' });
  const count = h('span', { class: 'muted' });
  const list = h('div', { class: 'list', role: 'list', 'data-testid': 'actor-list' });
  const inner = h('div', { style: 'position: relative; width: 100%' });
  list.append(inner);
  const apply = () => go({ ...(machine.value ? { machine: machine.value } : {}), ...(query.state ? { state: query.state } : {}), ...(node.value ? { node: node.value } : {}),
    ...(search.value ? { q: search.value } : {}) });
  let typing: number | undefined;
  for (const box of [search, node]) box.addEventListener('input', () => {
    clearTimeout(typing);
    typing = window.setTimeout(apply, 250);
  });
  machine.addEventListener('change', apply);

  const rows: ActorRow[] = [];
  const virtualizer = new Virtualizer<HTMLDivElement, HTMLDivElement>({
    count: 0,
    getScrollElement: () => list,
    estimateSize: () => ROW_PX,
    overscan: 10,
    scrollToFn: elementScroll,
    observeElementRect,
    observeElementOffset,
    onChange: () => draw(),
  });
  const draw = () => {
    inner.style.height = `${virtualizer.getTotalSize()}px`;
    inner.replaceChildren(...virtualizer.getVirtualItems().map((item) => {
      const a = rows[item.index]!;
      return h('div', { class: 'row', role: 'listitem', style: `top: ${item.start}px`, 'data-id': a.id, onclick: () => { location.hash = `#/actor/${encodeURIComponent(a.id)}`; } },
        h('span', { class: 'id' }, a.id), h('span', { class: 'muted' }, a.machine), h('span', { class: 'muted' }, a.node ?? ''), h('span', {}, a.state));
    }));
  };
  const cleanup = virtualizer._didMount();
  // The list measures its viewport once it is in the document.
  requestAnimationFrame(() => {
    virtualizer._willUpdate();
    draw();
  });

  let stopped = false;
  (async () => {
    const params = new URLSearchParams({ limit: '1000', ...query });
    for (;;) {
      const page = await api<ActorPage>(`actors?${params}`);
      if (stopped) return;
      rows.push(...page.items);
      virtualizer.setOptions({ ...virtualizer.options, count: rows.length });
      virtualizer.measure();
      draw();
      count.textContent = `${rows.length.toLocaleString('en')} actors${page.continue ? '…' : ''}`;
      if (!page.continue) return;
      params.set('continue', page.continue);
    }
  })().catch((e: Error) => count.replaceChildren(h('span', { class: 'error' }, e.message)));

  const title = query.state ? `Actors of ${query.machine ?? 'every machine'} in ${query.state}` : 'Actors';
  return {
    element: h('section', {}, h('h1', {}, title), h('div', { class: 'filters' }, search, machine, node, count), list),
    dispose() {
      stopped = true;
      clearTimeout(typing);
      cleanup();
    },
  };
}
