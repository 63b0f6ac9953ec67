// One pod's last scheduling decision in words, for `orchsim run --explain`: where it went and the
// weighted scores of the best nodes, or why it went nowhere, plugin by plugin.
import type { Decision } from '../../actors/scheduler/scheduler.ts';
import { formatClock } from './format.ts';

export function formatDecision(pod: string, d: Decision | undefined): string {
  if (!d) return `explain ${pod}: no scheduling decision kept (the pod does not exist, was never scheduled by this scheduler, or its decision is older than the newest explanationsKept)`;
  const lines: string[] = [];
  const when = `at ${formatClock(d.atMs)} (attempt ${d.attempt}); ${d.evaluated} of ${d.nodes} nodes filtered, ${d.feasible} feasible`;
  if (d.result === 'scheduled') {
    lines.push(`explain ${pod}: scheduled on ${d.node} ${when}`);
    for (const s of d.scores) {
      const parts = Object.entries(s.byPlugin).filter(([, v]) => v !== 0).map(([plugin, v]) => `${plugin} ${round(v)}`);
      lines.push(`  ${s.node === d.node ? '*' : ' '} ${s.node}  total ${round(s.total)}${parts.length ? `: ${parts.join(', ')}` : ''}`);
    }
    if (d.scores.length === 0) lines.push('  the only feasible node: no scoring needed');
  } else {
    lines.push(`explain ${pod}: unschedulable ${when}`);
    lines.push(`  ${d.message ?? ''}`);
    if (d.preemption) lines.push(`  preempting ${d.preemption.victims.join(', ')} on ${d.preemption.node}`);
  }
  for (const [plugin, reasons] of Object.entries(d.filtered))
    lines.push(`  filtered out by ${plugin}: ${Object.entries(reasons).map(([r, n]) => `${n} × ${r}`).join('; ')}`);
  return lines.join('\n');
}

const round = (x: number) => Math.round(x * 100) / 100;
