// core/v1 Event (k8s.io/api core/v1 generated.proto), as recorders write it: the object it is
// about, the reporting component, counts and times; eventTime and the series' last observed time
// are MicroTimes. reportingComponent and reportingInstance carry no omitempty in Go.
import { ObjectReference } from './protobuf-messages-core.ts';
import { ObjectMeta } from './protobuf-messages-meta.ts';
import { message } from './protobuf-schema.ts';

export const Event = message('Event', [
  [1, 'metadata', ObjectMeta, 'keep'],
  [2, 'involvedObject', ObjectReference, 'keep'],
  [3, 'reason', 'string'],
  [4, 'message', 'string'],
  [5, 'source', message('EventSource', [[1, 'component', 'string'], [2, 'host', 'string']])],
  [6, 'firstTimestamp', 'time'],
  [7, 'lastTimestamp', 'time'],
  [8, 'count', 'int32'],
  [9, 'type', 'string'],
  [10, 'eventTime', 'microTime'],
  [11, 'series', message('EventSeries', [[1, 'count', 'int32'], [2, 'lastObservedTime', 'microTime']])],
  [12, 'action', 'string'],
  [13, 'related', ObjectReference],
  [14, 'reportingComponent', 'string', 'keep'],
  [15, 'reportingInstance', 'string', 'keep'],
]);
