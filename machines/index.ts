// The lifecycle machines: pure definitions, one per file; the actors that host them do the I/O.
export { addedFinalizers, objectMachine } from './object.ts';
export type { DeleteEvent, FinalizersChangedEvent, ObjectContext, ObjectEvent, ObjectInput, ObjectSnapshot, ObjectState } from './object.ts';
export type { PropagationRequest } from './propagation.ts';
export { podMachine, podInput, podPhase, restartBackOffMs } from './pod.ts';
export type { PodContext, PodEvent, PodExit, PodInput, PodPhase, ReportedPodState } from './pod.ts';
export { backoffRemainingMs, jobMachine, jobPhase, nextBackoff } from './job.ts';
export type { BackoffRecord, Finish, JobContext, JobEvent, JobInput, JobPhase } from './job.ts';
export { nodeMachine } from './node.ts';
export type { Measurement, NodeContext, NodeEvent, NodeInput, Written } from './node.ts';
export { nodeHealthMachine } from './node-health.ts';
export type { NodeHealthContext, NodeHealthEvent, NodeHealthInput, Probe, ReadyStatus } from './node-health.ts';
export {
  batchPodStages,
  defaultPodStages,
  drawPodPlan,
  drawStep,
  pickDelayMs,
  pickStage,
  podExits,
  podStages,
  validateStages,
  withStages,
} from './stages.ts';
export type { PodPlan, PodStageTable, PodTarget, Stage, StageTable, Step, TimedPodState } from './stages.ts';
export { componentMachine } from './component.ts';
export type { ComponentContext, ComponentEvent } from './component.ts';
export { controllerMachine } from './controller.ts';
export type { ControllerContext, ControllerEvent, ControllerInput } from './controller.ts';
export { schedulerMachine } from './scheduler.ts';
export type { SchedulerContext, SchedulerEvent, SchedulerInput } from './scheduler.ts';
export { zoneMachine } from './zone.ts';
export type { ZoneContext, ZoneEvent, ZoneInput, ZoneState } from './zone.ts';
export { leaderMachine, leaderState, RETRY_JITTER } from './leader.ts';
export type { LeaderContext, LeaderEvent, LeaderInput, LeaderState, LeaseRead } from './leader.ts';
export { apiServerMachine, apiServerPhase } from './apiserver.ts';
export type { ApiServerLifecycleContext, ApiServerLifecycleEvent, ApiServerLifecycleInput, ApiServerPhase } from './apiserver.ts';
export { clusterAutoscalerMachine } from './cluster-autoscaler.ts';
export type { ClusterAutoscalerContext, ClusterAutoscalerEvent, ClusterAutoscalerInput, ScaleUpResult, UnneededResult } from './cluster-autoscaler.ts';
