// An actor's statechart: the machine's states, nested, and its transitions labelled with their
// events (a delay with its duration for this actor), laid out by elkjs's layered algorithm, with
// the actor's current state and its ancestors highlighted. Transitions of the machine's root
// (events taken in any state) are listed under the drawing.
import ELK from 'elkjs/lib/elk.bundled.js';
import type { ElkExtendedEdge, ElkNode } from 'elkjs/lib/elk.bundled.js';
import type { MachineDefinition, StateDefinition } from './api.ts';
import { h, s } from './dom.ts';

const elk = new ELK();
const CHAR_PX = 7;
const LABEL_PX = 16;

/** The states a state name puts the actor in, with their ancestors: `Ready.Heard` → Ready, Ready.Heard; `A.{b.X,c.Y}` → A, A.b, A.b.X, A.c, A.c.Y. */
export function activePaths(state: string): Set<string> {
  const out = new Set<string>();
  const walk = (prefix: string, rest: string) => {
    if (rest === '') return;
    if (rest.startsWith('{')) {
      let depth = 0, start = 1;
      for (let i = 1; i < rest.length; i++) {
        const c = rest[i];
        if (c === '{') depth++;
        else if (c === '}' && depth-- === 0) return void walk(prefix, rest.slice(start, i));
        else if (c === ',' && depth === 0) {
          walk(prefix, rest.slice(start, i));
          start = i + 1;
        }
      }
      return;
    }
    const dot = rest.indexOf('.');
    const key = dot < 0 ? rest : rest.slice(0, dot);
    const path = prefix ? `${prefix}.${key}` : key;
    out.add(path);
    if (dot >= 0) walk(path, rest.slice(dot + 1));
  };
  walk('', state);
  return out;
}

function label(t: StateDefinition['transitions'][number], delays: Record<string, number>): string {
  const delay = typeof t.delay === 'string' && delays[t.delay] !== undefined ? ` (${formatMs(delays[t.delay]!)})` : typeof t.delay === 'number' ? ` (${formatMs(t.delay)})` : '';
  return `${t.event}${delay}${t.guard ? ` [${t.guard}]` : ''}`;
}

function formatMs(ms: number): string {
  return ms >= 1000 ? `${+(ms / 1000).toFixed(2)} s` : `${ms} ms`;
}

function node(state: StateDefinition): ElkNode {
  const width = Math.max(70, state.key.length * CHAR_PX + 24);
  if (state.states.length === 0) return { id: state.path, width, height: 30 };
  return {
    id: state.path,
    layoutOptions: { 'elk.padding': '[top=30,left=14,bottom=14,right=14]' },
    children: state.states.map(node),
  };
}

function edges(state: StateDefinition, delays: Record<string, number>, out: ElkExtendedEdge[]): void {
  if (state.path !== '') {
    for (const t of state.transitions) for (const target of t.targets) {
      const text = label(t, delays);
      out.push({ id: `e${out.length}`, sources: [state.path], targets: [target], labels: [{ text, width: text.length * 6.2, height: 14 }] });
    }
  }
  for (const child of state.states) edges(child, delays, out);
}

export async function renderStatechart(definition: MachineDefinition, state: string, delays: Record<string, number>): Promise<HTMLElement> {
  const graph: ElkNode = {
    id: 'root',
    layoutOptions: {
      'elk.algorithm': 'layered', 'elk.direction': 'DOWN', 'elk.hierarchyHandling': 'INCLUDE_CHILDREN',
      'elk.json.edgeCoords': 'ROOT', 'elk.json.shapeCoords': 'ROOT', 'elk.edgeLabels.inline': 'false',
      'elk.layered.spacing.nodeNodeBetweenLayers': '40', 'elk.spacing.nodeNode': '30', 'elk.spacing.edgeLabel': '4',
    },
    children: definition.root.states.map(node),
    edges: [],
  };
  edges(definition.root, delays, graph.edges!);
  const laid = await elk.layout(graph);
  const active = activePaths(state);
  const byPath = new Map<string, StateDefinition>();
  const index = (d: StateDefinition) => { byPath.set(d.path, d); d.states.forEach(index); };
  index(definition.root);

  const shapes: SVGElement[] = [];
  const drawNode = (n: ElkNode) => {
    const d = byPath.get(n.id)!;
    const compound = d.states.length > 0;
    const classes = ['state', compound ? 'compound' : 'atomic', d.type === 'final' ? 'final' : '', active.has(d.path) ? 'active' : ''].filter(Boolean).join(' ');
    const parent = d.path.includes('.') ? byPath.get(d.path.slice(0, d.path.lastIndexOf('.'))) : definition.root;
    const initial = parent?.initial === d.path;
    shapes.push(s('g', { class: classes, 'data-state': d.path },
      s('rect', { x: n.x!, y: n.y!, width: n.width!, height: n.height!, rx: 6 }),
      s('text', { x: n.x! + (compound ? 10 : n.width! / 2), y: n.y! + (compound ? LABEL_PX + 2 : n.height! / 2 + 4), 'text-anchor': compound ? 'start' : 'middle' },
        `${initial ? '▸ ' : ''}${d.key}${d.invoke.length ? ` ⟳ ${d.invoke.join(', ')}` : ''}`)));
    n.children?.forEach(drawNode);
  };
  laid.children?.forEach(drawNode);
  const lines: SVGElement[] = [];
  for (const e of laid.edges ?? []) {
    for (const section of e.sections ?? []) {
      const points = [section.startPoint, ...(section.bendPoints ?? []), section.endPoint];
      lines.push(s('g', { class: 'edge' }, s('path', { d: points.map((p, i) => `${i ? 'L' : 'M'}${p.x},${p.y}`).join(' '), 'marker-end': 'url(#arrow)' })));
    }
    for (const l of e.labels ?? []) lines.push(s('g', { class: 'edge' }, s('text', { x: l.x!, y: l.y! + 11 }, l.text!)));
  }
  const width = (laid.width ?? 400) + 20, height = (laid.height ?? 200) + 20;
  const svg = s('svg', { width, height, viewBox: `-10 -10 ${width} ${height}`, role: 'img', 'aria-label': `${definition.id} statechart, in ${state}` },
    s('defs', {}, s('marker', { id: 'arrow', viewBox: '0 0 10 10', refX: 9, refY: 5, markerWidth: 7, markerHeight: 7, orient: 'auto-start-reverse' },
      s('path', { d: 'M0,0 L10,5 L0,10 z', fill: '#7a8497' }))),
    ...shapes, ...lines);
  const anywhere = definition.root.transitions.map((t) => h('li', {}, `${label(t, delays)} → ${t.targets.join(', ') || '(actions only)'}`));
  return h('div', { class: 'chart', 'data-testid': 'statechart', 'data-state': state }, svg,
    anywhere.length ? h('div', { style: 'padding: 0.4rem 0.8rem' }, h('span', { class: 'muted' }, 'In any state: '), h('ul', {}, ...anywhere)) : undefined);
}
