// The actor system every process hosts its machines in, and the inspection record it keeps.
export { ActorSystem } from './actor-system.ts';
export type { ActorInfo, ActorSystemOptions, HostOptions } from './actor-system.ts';
export { stateName, topState } from './records.ts';
export type { ActorRecord, InspectionRecord, StopRecord, TransitionRecord } from './records.ts';
