// autoscaling: the Scale of a workload's `/scale` subresource (autoscaling/v1) and the
// HorizontalPodAutoscaler as it is stored (autoscaling/v2).
import type * as autoscaling from 'kubernetes-types/autoscaling/v1.js';
import type * as autoscalingV2 from 'kubernetes-types/autoscaling/v2.js';
import { typedResource, type Stored } from './stored.ts';

export type Scale = Stored<autoscaling.Scale>;
export type HorizontalPodAutoscaler = Stored<autoscalingV2.HorizontalPodAutoscaler>;
export const HPAS = typedResource<HorizontalPodAutoscaler>('autoscaling', 'v2', 'horizontalpodautoscalers');
