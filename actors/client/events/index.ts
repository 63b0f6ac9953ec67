// Events as the components record them: the core v1 recorder with its correlator (node agent,
// controllers), the events API recorder with its series (scheduler), and references to objects.
export { CoreEventRecorder, coreRecorders, NO_EVENTS } from './recorder.ts';
export type { EventExtras, EventRecorder, RecorderFactory, RecorderInit } from './recorder.ts';
export { SeriesEventRecorder } from './series.ts';
export type { SeriesRecorderInit } from './series.ts';
export { COMBINED_PREFIX } from './correlator.ts';
export type { CorrelatorOptions } from './correlator.ts';
export { EVENTS, referenceOf, referenceTo, truncateMessage } from './event.ts';
export type { CoreEvent, EventSource, EventType, ObjectReference } from './event.ts';
