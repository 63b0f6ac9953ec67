// scheduling.k8s.io/v1 PriorityClass (k8s.io/api scheduling/v1 generated.proto), which
// `kubectl create priorityclass` sends.
import { ObjectMeta } from './protobuf-messages-meta.ts';
import { message } from './protobuf-schema.ts';

export const PriorityClass = message('PriorityClass', [
  [1, 'metadata', ObjectMeta, 'keep'],
  // Not omitempty in Go: a class of value 0 says so.
  [2, 'value', 'int32', 'keep'],
  [3, 'globalDefault', 'bool'],
  [4, 'description', 'string'],
  [5, 'preemptionPolicy', 'string'],
]);
