// API Priority and Fairness: the bootstrap configuration and its producer, classification, fair
// queuing and the seats of each priority level. The API server uses what is exported here.
export { FLOWCONTROL_GROUP, AUTOUPDATE_ANNOTATION } from './bootstrap.ts';
export { ensureBootstrapConfiguration, keepBootstrapConfiguration } from './config-producer.ts';
export { FlowControl, type DanglingCondition, type FlowControlMetrics } from './controller.ts';
export { FLOW_SCHEMA_UID_HEADER, PRIORITY_LEVEL_UID_HEADER, type FlowAdmission } from './admission.ts';
export type { FlowCounts, RejectReason } from './queueset.ts';
export type { RequestDigest } from './rules.ts';
export { flowControlFor, queueWaitLimitMs, requestDigest } from './setup.ts';
