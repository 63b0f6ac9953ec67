// PriorityLevelConfigurations (flowcontrol.apiserver.k8s.io/v1, pkg/apis/flowcontrol/v1
// defaults.go): a Limited level's nominalConcurrencyShares 30 when absent (0 is kept: a "jail"
// level), lendablePercent 0; an Exempt level's shares and lendablePercent 0; queuing with 64
// queues, hands of 8 and 50 requests a queue. printPriorityLevelConfiguration shows NAME TYPE
// NOMINALCONCURRENCYSHARES QUEUES HANDSIZE QUEUELENGTHLIMIT AGE, "<none>" where a level has none.
import type { KObject } from '../../../api/types.ts';
import { fill, nil, present, zero } from '../defaults-fields.ts';
import { validatePriorityLevel } from '../flowcontrol-validation.ts';
import { defineKind } from '../kind.ts';
import { age, ageColumn, column, fields, int, nameColumn, nameOf, type Printer, text } from '../tables-format.ts';

const DEFAULT_NOMINAL_CONCURRENCY_SHARES = 30;

function defaults(pl: KObject): void {
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

const printer: Printer = {
  columns: [
    nameColumn,
    column('Type', '`type` indicates whether this priority level is subject to limitation on request execution.  A value of `"Exempt"` means that requests of this priority level are not subject to a limit (and thus are never queued) and do not detract from the capacity made available to other priority levels.  A value of `"Limited"` means that (a) requests of this priority level _are_ subject to limits and (b) some of the server\'s limited capacity is made available exclusively to this priority level. Required.'),
    column('NominalConcurrencyShares', '`nominalConcurrencyShares` (NCS) contributes to the computation of the NominalConcurrencyLimit (NominalCL) of this level. This is the number of execution seats available at this priority level. This is used both for requests dispatched from this priority level as well as requests dispatched from other priority levels borrowing seats from this level. The server\'s concurrency limit (ServerCL) is divided among the Limited priority levels in proportion to their NCS values:\n\nNominalCL(i)  = ceil( ServerCL * NCS(i) / sum_ncs ) sum_ncs = sum[priority level k] NCS(k)\n\nBigger numbers mean a larger nominal concurrency limit, at the expense of every other priority level.\n\nIf not specified, this field defaults to a value of 30.\n\nSetting this field to zero supports the construction of a "jail" for this priority level that is used to hold some request(s)'),
    column('Queues', '`queues` is the number of queues for this priority level. The queues exist independently at each apiserver. The value must be positive.  Setting it to 1 effectively precludes shufflesharding and thus makes the distinguisher method of associated flow schemas irrelevant.  This field has a default value of 64.'),
    column('HandSize', '`handSize` is a small positive number that configures the shuffle sharding of requests into queues.  When enqueuing a request at this priority level the request\'s flow identifier (a string pair) is hashed and the hash value is used to shuffle the list of queues and deal a hand of the size specified here.  The request is put into one of the shortest queues in that hand. `handSize` must be no larger than `queues`, and should be significantly smaller (so that a few heavy flows do not saturate most of the queues).  See the user-facing documentation for more extensive guidance on setting this field.  This field has a default value of 8.'),
    column('QueueLengthLimit', '`queueLengthLimit` is the maximum number of requests allowed to be waiting in a given queue of this priority level at a time; excess requests are rejected.  This value must be positive.  If not specified, it will be defaulted to 50.'),
    ageColumn,
  ],
  cells(o: KObject, nowMs: number) {
    const spec = fields(o.spec);
    const limited = spec.limited === undefined || spec.limited === null ? undefined : fields(spec, 'limited');
    const queuing = limited && fields(limited, 'limitResponse').queuing ? fields(limited, 'limitResponse', 'queuing') : undefined;
    const none = '<none>';
    return [nameOf(o), text(spec.type), limited ? int(limited.nominalConcurrencyShares) : none,
      queuing ? int(queuing.queues) : none, queuing ? int(queuing.handSize) : none, queuing ? int(queuing.queueLengthLimit) : none,
      age(o, nowMs)];
  },
};

export const priorityLevel = defineKind({ nameRule: 'subdomain', hasStatus: true, hasGeneration: true, validate: validatePriorityLevel, defaults, printer });
