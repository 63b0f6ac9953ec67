// flowcontrol.apiserver.k8s.io/v1 defaults (kubernetes pkg/apis/flowcontrol/v1 defaults.go, 1.32):
// a FlowSchema's matchingPrecedence 1000; a Limited level's nominalConcurrencyShares 30 when
// absent (0 is kept: a "jail" level), lendablePercent 0; an Exempt level's shares and
// lendablePercent 0; queuing with 64 queues, hands of 8 and 50 requests a queue.
import type { KObject } from '../../api/types.ts';
import { child, fill, nil, present, zero } from './defaults-fields.ts';

export const DEFAULT_MATCHING_PRECEDENCE = 1000;
export const DEFAULT_NOMINAL_CONCURRENCY_SHARES = 30;

export function defaultFlowSchema(fs: KObject): void {
  fill(child(fs, 'spec'), [zero('matchingPrecedence', DEFAULT_MATCHING_PRECEDENCE)]);
}

export function defaultPriorityLevel(pl: KObject): void {
  const spec = present(pl, 'spec');
  if (!spec) return;
  const exempt = present(spec, 'exempt');
  if (exempt) fill(exempt, [nil('nominalConcurrencyShares', 0), nil('lendablePercent', 0)]);
  const limited = present(spec, 'limited');
  if (!limited) return;
  fill(limited, [nil('nominalConcurrencyShares', DEFAULT_NOMINAL_CONCURRENCY_SHARES), nil('lendablePercent', 0)]);
  const response = present(limited, 'limitResponse');
  const queuing = response && present(response, 'queuing');
  if (queuing) fill(queuing, [zero('handSize', 8), zero('queues', 64), zero('queueLengthLimit', 50)]);
}
