// The status the real autoscaler writes every loop into the ConfigMap `cluster-autoscaler-status`
// in kube-system (clusterstate/api/types.go, clusterstate/utils/status.go): under `data.status` a
// YAML document of the cluster-wide and per-group health, scale-up and scale-down conditions, and
// the annotation `cluster-autoscaler.kubernetes.io/last-updated` with the same time as `time:`.
import { timestamp } from '../api/env.ts';
import type { BackoffInfo } from './cluster-state.ts';

export const LAST_UPDATED_ANNOTATION = 'cluster-autoscaler.kubernetes.io/last-updated';

export interface NodeCounts {
  /** Registered nodes, Ready ones among them. */
  total: number;
  ready: number;
  /** Asked for, not yet registered; longUnregistered: for longer than max-node-provision-time. */
  unregistered: number;
  longUnregistered: number;
}

export interface GroupView {
  name: string;
  counts: NodeCounts;
  target: number;
  min: number;
  max: number;
  /** Unneeded nodes of the group. */
  candidates: number;
  /** Why it is backed off after a failed scale-up, while it is. */
  backoff?: BackoffInfo;
}

export interface StatusView {
  counts: NodeCounts;
  candidates: number;
  groups: GroupView[];
}

/** Go's time.Format with the layout the real one uses ("2006-01-02 15:04:05.999999999 -0700 MST"), in UTC. */
export function lastUpdatedText(ms: number): string {
  const iso = new Date(ms).toISOString();
  const fraction = iso.slice(20, 23).replace(/0+$/, '');
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)}${fraction ? `.${fraction}` : ''} +0000 UTC`;
}

/** Each condition's status and when it last changed, so lastTransitionTime says when. */
export class Transitions {
  readonly #since = new Map<string, { status: string; atMs: number }>();

  at(key: string, status: string, nowMs: number): number {
    const seen = this.#since.get(key);
    if (seen?.status === status) return seen.atMs;
    this.#since.set(key, { status, atMs: nowMs });
    return nowMs;
  }
}

function condition(lines: string[], indent: string, key: string, status: string, nowMs: number, changedMs: number, extra: string[] = []): void {
  lines.push(`${indent}${key}:`, `${indent}  status: ${status}`, ...extra.map((l) => `${indent}  ${l}`),
    `${indent}  lastProbeTime: "${timestamp(nowMs)}"`, `${indent}  lastTransitionTime: "${timestamp(changedMs)}"`);
}

const countLines = (c: NodeCounts) => ['nodeCounts:', '  registered:', `    total: ${c.total}`, `    ready: ${c.ready}`, `    notStarted: 0`,
  `  longUnregistered: ${c.longUnregistered}`, `  unregistered: ${c.unregistered}`];

/** A string as sigs.k8s.io/yaml writes it: plain when YAML reads it back as the same text, else double-quoted. */
const yamlString = (text: string) => (/^[A-Za-z][^:#'"\n]*$/.test(text) && !/\s$/.test(text) ? text : JSON.stringify(text));

/** The `status` document at `nowMs`. */
export function statusYaml(view: StatusView, nowMs: number, transitions: Transitions): string {
  const lines = [`time: ${lastUpdatedText(nowMs)}`, 'autoscalerStatus: Running', 'clusterWide:'];
  const scaleUp = (c: NodeCounts) => (c.unregistered > 0 ? 'InProgress' : 'NoActivity');
  const scaleDown = (n: number) => (n > 0 ? 'CandidatesPresent' : 'NoCandidates');
  const at = (key: string, status: string) => transitions.at(key, status, nowMs);
  condition(lines, '  ', 'health', 'Healthy', nowMs, at('health', 'Healthy'), countLines(view.counts));
  condition(lines, '  ', 'scaleUp', scaleUp(view.counts), nowMs, at('scaleUp', scaleUp(view.counts)));
  condition(lines, '  ', 'scaleDown', scaleDown(view.candidates), nowMs, at('scaleDown', scaleDown(view.candidates)),
    view.candidates > 0 ? [`candidates: ${view.candidates}`] : []);
  if (view.groups.length) lines.push('nodeGroups:');
  for (const g of view.groups) {
    lines.push(`- name: ${g.name}`);
    condition(lines, '  ', 'health', 'Healthy', nowMs, at(`${g.name}/health`, 'Healthy'),
      [...countLines(g.counts), `cloudProviderTarget: ${g.target}`, `minSize: ${g.min}`, `maxSize: ${g.max}`]);
    const groupScaleUp = g.backoff ? 'Backoff' : scaleUp(g.counts);
    condition(lines, '  ', 'scaleUp', groupScaleUp, nowMs, at(`${g.name}/scaleUp`, groupScaleUp),
      g.backoff ? ['backoffInfo:', `  errorCode: ${yamlString(g.backoff.errorCode)}`, `  errorMessage: ${yamlString(g.backoff.errorMessage)}`] : []);
    condition(lines, '  ', 'scaleDown', scaleDown(g.candidates), nowMs, at(`${g.name}/scaleDown`, scaleDown(g.candidates)),
      g.candidates > 0 ? [`candidates: ${g.candidates}`] : []);
  }
  return `${lines.join('\n')}\n`;
}
