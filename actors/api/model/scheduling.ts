// scheduling.k8s.io/v1: the PriorityClass.
import type * as scheduling from 'kubernetes-types/scheduling/v1.js';
import { typedResource, type Stored } from './stored.ts';

export type PriorityClass = Stored<scheduling.PriorityClass>;
export const PRIORITY_CLASSES = typedResource<PriorityClass>('scheduling.k8s.io', 'v1', 'priorityclasses');
