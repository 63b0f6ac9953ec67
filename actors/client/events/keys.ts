// How recorders tell events apart: the real keys. The core v1 recorder's join the listed fields
// with nothing between them, as client-go does; the events API recorder's compares a struct of
// fields, so its fields are kept apart. A key is kept as a 52-bit hash of that text (an exact
// number key): a simulated cluster runs hundreds of recorders in one process, and the text costs
// several times the hash.
import type { CoreEvent, ObjectReference } from './event.ts';

/** A 52-bit hash of the parts' concatenation (two 32-bit FNV-style lanes), exact as a number key. */
export function hashKey(parts: readonly (string | undefined)[]): number {
  let a = 0x811c9dc5, b = 0x2f2d3b5d;
  for (const p of parts) {
    if (!p) continue;
    for (let i = 0; i < p.length; i++) {
      const c = p.charCodeAt(i);
      a = Math.imul(a ^ c, 0x01000193);
      b = Math.imul(b ^ c, 0x5bd1e995);
    }
  }
  return (a >>> 0) * 0x100000 + ((b >>> 12) & 0xfffff);
}

const objectParts = (e: CoreEvent) => {
  const o = e.involvedObject;
  return [e.source.component, e.source.host, o.kind, o.namespace, o.name];
};
/** getEventKey: every field but the times. */
export const eventKey = (e: CoreEvent) => hashKey([...objectParts(e), e.involvedObject.fieldPath, e.involvedObject.uid, e.involvedObject.apiVersion, e.type, e.reason, e.message]);
/** getSpamKey: the source and the object. */
export const spamKey = (e: CoreEvent) => hashKey([...objectParts(e), e.involvedObject.uid, e.involvedObject.apiVersion, e.type]);
/** EventAggregatorByReasonFunc's aggregate key; its local key is the message. */
export const aggregateKey = (e: CoreEvent) =>
  hashKey([...objectParts(e), e.involvedObject.uid, e.involvedObject.apiVersion, e.type, e.reason, e.reportingComponent, e.reportingInstance]);

const referenceParts = (r: ObjectReference | undefined) =>
  [r?.kind, r?.namespace, r?.name, r?.uid, r?.apiVersion, r?.resourceVersion, r?.fieldPath];

/** The events API broadcaster's isomorphic key: type, action, reason, reporter, and both references whole. */
export function seriesKey(e: CoreEvent): number {
  const fields = [e.type, e.action, e.reason, e.reportingComponent, e.reportingInstance, ...referenceParts(e.involvedObject), ...referenceParts(e.related)];
  return hashKey(fields.flatMap((f) => [f ?? '', '\u0000']));
}
