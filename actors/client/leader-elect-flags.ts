// The `--leader-elect*` options the controller manager and the scheduler share (seed 001), as
// option-table entries, and the rule across them that client-go enforces.
import { bool, duration, oneOf, string } from '../api/options/kinds.ts';
import type { CrossRule, OptionSpec } from '../api/options/table.ts';
import { RETRY_JITTER, type LeaderElectOptions } from './leader-election.ts';
import { formatDuration } from '../api/duration.ts';

const positive = (v: number) => (v > 0 ? undefined : 'must be a duration greater than 0');
const named = (v: string) => (v !== '' ? undefined : 'must not be empty');

/** The entries, with the lock's default name (`orch-controller-manager`, `orch-scheduler`). */
export function leaderElectSpecs<T extends LeaderElectOptions>(group: string, resourceName: string): OptionSpec<T>[] {
  return [
    { name: 'leader-elect', kind: bool, key: 'leaderElect', default: true, group, help: 'gain leadership before running the main loop; for replicated components' },
    { name: 'leader-elect-lease-duration', kind: duration, key: 'leaderElectLeaseDurationMs', default: 15_000, group, rule: positive,
      help: 'how long a candidate waits, after it last saw the lease change, before it takes over a leader\'s lease' },
    { name: 'leader-elect-renew-deadline', kind: duration, key: 'leaderElectRenewDeadlineMs', default: 10_000, group, rule: positive,
      help: 'how long a leader keeps trying to renew before it steps down; at most the lease duration' },
    { name: 'leader-elect-retry-period', kind: duration, key: 'leaderElectRetryPeriodMs', default: 2_000, group, rule: positive,
      help: 'how long candidates wait between tries to acquire or renew the lease' },
    { name: 'leader-elect-resource-lock', kind: oneOf('leases', 'endpointsleases', 'configmapsleases'), default: 'leases', group,
      help: 'the kind of lock object: leases, endpointsleases or configmapsleases (orchsim locks on the Lease of each)' },
    { name: 'leader-elect-resource-name', kind: string, key: 'leaderElectResourceName', default: resourceName, group, rule: named, help: 'the name of the lock object' },
    { name: 'leader-elect-resource-namespace', kind: string, key: 'leaderElectResourceNamespace', default: 'orch-system', group, rule: named, help: 'the namespace of the lock object' },
  ] as OptionSpec<T>[];
}

/** The lease must outlast the renew deadline, which must outlast the retry period with its jitter; `names` are the three options, in that order. */
export function leaderElectRule(names: [lease: string, renew: string, retry: string], show = (n: string) => (n.includes('.') ? n : `--${n}`)): CrossRule {
  return {
    names,
    check(v) {
      const [lease, renew, retry] = names.map((n) => v(n) as number);
      const [l, r, t] = names.map(show);
      if (!(lease > renew)) return `${l} (${formatDuration(lease)}) must be greater than ${r} (${formatDuration(renew)})`;
      if (!(renew > RETRY_JITTER * retry)) return `${r} (${formatDuration(renew)}) must be greater than ${RETRY_JITTER} × ${t} (${formatDuration(retry)})`;
      return undefined;
    },
  };
}

export const LEADER_ELECT_RULE = leaderElectRule(['leader-elect-lease-duration', 'leader-elect-renew-deadline', 'leader-elect-retry-period']);
