// Printers for flowcontrol.apiserver.k8s.io (printers.go printFlowSchema,
// printPriorityLevelConfiguration, 1.32): `kubectl get flowschemas` shows NAME PRIORITYLEVEL
// MATCHINGPRECEDENCE DISTINGUISHERMETHOD AGE MISSINGPL, in matching order (precedence, then name,
// as printFlowSchemaList sorts them); `kubectl get prioritylevelconfigurations` shows NAME TYPE
// NOMINALCONCURRENCYSHARES QUEUES HANDSIZE QUEUELENGTHLIMIT AGE, "<none>" where a level has none.
import type { KObject } from '../../api/types.ts';
import { translateTimestampSince } from './human-duration.ts';
import { ageColumn, column, fields, int, list, nameColumn, type Printer, text } from './tables-format.ts';

const flowSchema: Printer = {
  columns: [
    nameColumn,
    column('PriorityLevel', '`name` is the name of the priority level configuration being referenced Required.'),
    column('MatchingPrecedence', '`matchingPrecedence` is used to choose among the FlowSchemas that match a given request. The chosen FlowSchema is among those with the numerically lowest (which we take to be logically highest) MatchingPrecedence.  Each MatchingPrecedence value must be ranged in [1,10000]. Note that if the precedence is not specified, it will be set to 1000 as default.'),
    column('DistinguisherMethod', '`distinguisherMethod` defines how to compute the flow distinguisher for requests that match this schema. `nil` specifies that the distinguisher is disabled and thus will always be the empty string.'),
    ageColumn,
    column('MissingPL', 'references a broken or non-existent PriorityLevelConfiguration'),
  ],
  cells(o: KObject, nowMs: number) {
    const spec = fields(o.spec);
    const method = fields(spec, 'distinguisherMethod');
    const dangling = list(fields(o.status).conditions).map((c) => fields(c)).find((c) => c.type === 'Dangling');
    return [o.metadata.name ?? '', text(fields(spec, 'priorityLevelConfiguration').name), int(spec.matchingPrecedence),
      spec.distinguisherMethod ? text(method.type) : '<none>', translateTimestampSince(o.metadata.creationTimestamp, nowMs),
      dangling ? text(dangling.status) : '?'];
  },
  order(a: KObject, b: KObject) {
    const pa = int(fields(a.spec).matchingPrecedence);
    const pb = int(fields(b.spec).matchingPrecedence);
    const na = a.metadata.name ?? '';
    const nb = b.metadata.name ?? '';
    return pa - pb || (na < nb ? -1 : na > nb ? 1 : 0);
  },
};

const priorityLevel: Printer = {
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
    return [o.metadata.name ?? '', text(spec.type), limited ? int(limited.nominalConcurrencyShares) : none,
      queuing ? int(queuing.queues) : none, queuing ? int(queuing.handSize) : none, queuing ? int(queuing.queueLengthLimit) : none,
      translateTimestampSince(o.metadata.creationTimestamp, nowMs)];
  },
};

/** Printers keyed by resource. */
export const FLOWCONTROL_PRINTERS: Readonly<Record<string, Printer>> = {
  flowschemas: flowSchema,
  prioritylevelconfigurations: priorityLevel,
};
