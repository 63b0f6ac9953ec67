// events.k8s.io/v1 Events: the core v1 Events, under the events API's field names
// (pkg/apis/events/v1 conversion.go): `note` is the message, `regarding` the involved object,
// `reportingController` the reporting component, and the core API's source, first and last
// timestamps and count are `deprecated`. Written through this API, an Event must say when and by
// whom it happened (ValidateEventCreate for events.k8s.io/v1); printed as core Events are.
import { lookupResource } from '../../../api/resources.ts';
import type { StatusCause } from '../../../api/status.ts';
import type { KObject } from '../../../api/types.ts';
import { defineKind } from '../kind.ts';
import { text } from '../tables-format.ts';
import { printer as corePrinter } from './event.ts';

/** events.k8s.io/v1 field → core v1 field, for the fields whose names differ. */
const RENAMED: readonly [string, string][] = [
  ['note', 'message'],
  ['regarding', 'involvedObject'],
  ['reportingController', 'reportingComponent'],
  ['deprecatedSource', 'source'],
  ['deprecatedFirstTimestamp', 'firstTimestamp'],
  ['deprecatedLastTimestamp', 'lastTimestamp'],
  ['deprecatedCount', 'count'],
];

function renamed(obj: KObject, pairs: readonly (readonly [string, string])[], apiVersion: string): KObject {
  const out: KObject = { ...obj, apiVersion };
  for (const [from, to] of pairs) {
    if (!(from in out)) continue;
    out[to] = out[from];
    delete out[from];
  }
  return out;
}

const INVERSE = RENAMED.map(([a, b]) => [b, a] as const);
const toStored = (obj: KObject) => renamed(obj, RENAMED, 'v1');
const fromStored = (obj: KObject) => renamed(obj, INVERSE, 'events.k8s.io/v1');

const required = (field: string): StatusCause => ({ reason: 'FieldValueRequired', message: 'Required value', field });
const tooLong = (field: string, max: number): StatusCause => ({ reason: 'FieldValueTooLong', message: `Too long: may not be more than ${max} bytes`, field });
const NOTE_MAX_BYTES = 1024;
const SHORT_MAX_BYTES = 128;

/** What an Event written through events.k8s.io/v1 must say (checked on its own fields, before it is stored). */
function validate(obj: KObject): StatusCause[] {
  const causes: StatusCause[] = [];
  if (!obj.eventTime) causes.push(required('eventTime'));
  for (const f of ['reportingController', 'reportingInstance', 'action', 'reason'] as const) {
    const v = text(obj[f]);
    if (!v) causes.push(required(f));
    else if (Buffer.byteLength(v) > SHORT_MAX_BYTES) causes.push(tooLong(f, SHORT_MAX_BYTES));
  }
  if (obj.type !== 'Normal' && obj.type !== 'Warning')
    causes.push({ reason: 'FieldValueInvalid', message: `Invalid value: ${JSON.stringify(obj.type ?? '')}: has invalid value: ${text(obj.type)}`, field: 'type' });
  if (Buffer.byteLength(text(obj.note)) > NOTE_MAX_BYTES) causes.push(tooLong('note', NOTE_MAX_BYTES));
  return causes;
}

export const eventV1 = defineKind({
  nameRule: 'subdomain',
  hasStatus: false,
  hasGeneration: false,
  allowCreateOnUpdate: true,
  validate,
  printer: { ...corePrinter, cells: (o, nowMs) => corePrinter.cells(toStored(o), nowMs) },
  view: { of: lookupResource('', 'v1', 'events')!, toStored, fromStored },
});
