// autoscaling/v1 HorizontalPodAutoscaler (k8s.io/api autoscaling/v1 generated.proto), which
// `kubectl autoscale` sends.
import { ObjectMeta } from './protobuf-messages-meta.ts';
import { message } from './protobuf-schema.ts';

const CrossVersionObjectReference = message('CrossVersionObjectReference', [
  [1, 'kind', 'string', 'keep'],
  [2, 'name', 'string', 'keep'],
  [3, 'apiVersion', 'string'],
]);

const HorizontalPodAutoscalerSpec = message('HorizontalPodAutoscalerSpec', [
  [1, 'scaleTargetRef', CrossVersionObjectReference, 'keep'],
  [2, 'minReplicas', 'int32', 'keep'],
  [3, 'maxReplicas', 'int32', 'keep'],
  [4, 'targetCPUUtilizationPercentage', 'int32', 'keep'],
]);

const HorizontalPodAutoscalerStatus = message('HorizontalPodAutoscalerStatus', [
  [1, 'observedGeneration', 'int64', 'keep'],
  [2, 'lastScaleTime', 'time'],
  [3, 'currentReplicas', 'int32', 'keep'],
  [4, 'desiredReplicas', 'int32', 'keep'],
  [5, 'currentCPUUtilizationPercentage', 'int32', 'keep'],
]);

export const HorizontalPodAutoscaler = message('HorizontalPodAutoscaler', [
  [1, 'metadata', ObjectMeta, 'keep'],
  [2, 'spec', HorizontalPodAutoscalerSpec, 'keep'],
  [3, 'status', HorizontalPodAutoscalerStatus, 'keep'],
]);
