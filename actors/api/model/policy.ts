// policy/v1: the PodDisruptionBudget (its rules' vocabulary is `api/disruption-budget.ts`).
import type * as policy from 'kubernetes-types/policy/v1.js';
import { typedResource, type Stored } from './stored.ts';

export type PodDisruptionBudget = Stored<policy.PodDisruptionBudget>;
export const PDBS = typedResource<PodDisruptionBudget>('policy', 'v1', 'poddisruptionbudgets');
