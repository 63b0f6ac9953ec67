// Events (core v1): a PUT on a missing name creates one, as recorders write them. printEvent.
import type { KObject } from '../../../api/types.ts';
import { timestampIsSet, translateTimestampSince } from '../human-duration.ts';
import { defineKind } from '../kind.ts';
import { column, fields, int, NAME_DOC, nameOf, type Printer, text, wide } from '../tables-format.ts';

export const printer: Printer = {
  columns: [
    column('Last Seen', 'The time at which the most recent occurrence of this event was recorded.'),
    column('Type', 'Type of this event (Normal, Warning), new types could be added in the future'),
    column('Reason', 'This should be a short, machine understandable string that gives the reason for the transition into the object\'s current status.'),
    column('Object', 'The object that this event is about.'),
    column('Subobject', 'If referring to a piece of an object instead of an entire object, this string should contain a valid JSON/Go field access statement.', wide),
    column('Source', 'The component reporting this event.', wide),
    column('Message', 'A human-readable description of the status of this operation.'),
    column('First Seen', 'The time at which the event was first recorded.', wide),
    column('Count', 'The number of times this event has occurred.', wide),
    column('Name', NAME_DOC, { format: 'name', priority: 1 }),
  ],
  cells: eventCells,
};

function eventCells(o: KObject, nowMs: number): unknown[] {
  const involved = fields(o.involvedObject);
  const source = fields(o.source);
  const series = o.series !== undefined && o.series !== null ? fields(o.series) : undefined;
  const firstSeen = translateTimestampSince(timestampIsSet(o.firstTimestamp) ? o.firstTimestamp : o.eventTime, nowMs);
  let lastSeen = timestampIsSet(o.lastTimestamp) ? translateTimestampSince(o.lastTimestamp, nowMs) : firstSeen;
  let count = int(o.count);
  if (series) {
    lastSeen = translateTimestampSince(series.lastObservedTime, nowMs);
    count = int(series.count);
  } else if (count === 0) {
    count = 1; // singleton events of the events.k8s.io API carry no count
  }
  const kind = text(involved.kind).toLowerCase();
  const target = text(involved.name) ? `${kind}/${text(involved.name)}` : kind;
  const component = text(source.component) || text(o.reportingComponent);
  const instance = text(source.host) || text(o.reportingInstance);
  return [
    lastSeen, text(o.type), text(o.reason), target, text(involved.fieldPath), instance ? `${component}, ${instance}` : component,
    text(o.message).trim(), firstSeen, count, nameOf(o),
  ];
}

export const event = defineKind({ nameRule: 'subdomain', hasStatus: false, hasGeneration: false, allowCreateOnUpdate: true, printer });
