// autoscaling: the Scale of a workload's `/scale` subresource (autoscaling/v1).
import type * as autoscaling from 'kubernetes-types/autoscaling/v1.js';
import type { Stored } from './stored.ts';

export type Scale = Stored<autoscaling.Scale>;
