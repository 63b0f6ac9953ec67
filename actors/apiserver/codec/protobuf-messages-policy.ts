// policy/v1 Eviction (k8s.io/api policy/v1 generated.proto), the body of pods/eviction.
import { DeleteOptions, ObjectMeta } from './protobuf-messages-meta.ts';
import { message } from './protobuf-schema.ts';

export const Eviction = message('Eviction', [
  [1, 'metadata', ObjectMeta, 'keep'],
  [2, 'deleteOptions', DeleteOptions],
]);
