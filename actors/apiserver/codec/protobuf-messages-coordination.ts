// coordination.k8s.io/v1 Lease (k8s.io/api coordination/v1 generated.proto): every spec field is
// a pointer in Go, so a zero (leaseTransitions: 0, holderIdentity: "") is kept; the times are MicroTimes.
import { ObjectMeta } from './protobuf-messages-meta.ts';
import { message } from './protobuf-schema.ts';

export const Lease = message('Lease', [
  [1, 'metadata', ObjectMeta, 'keep'],
  [2, 'spec', message('LeaseSpec', [
    [1, 'holderIdentity', 'string', 'keep'],
    [2, 'leaseDurationSeconds', 'int32', 'keep'],
    [3, 'acquireTime', 'microTime'],
    [4, 'renewTime', 'microTime'],
    [5, 'leaseTransitions', 'int32', 'keep'],
    [6, 'strategy', 'string', 'keep'],
    [7, 'preferredHolder', 'string', 'keep'],
  ])],
]);
