// The Protobuf codec of the API server (application/vnd.kubernetes.protobuf). A body is the
// 4-byte prefix "k8s\0" and a runtime.Unknown envelope {typeMeta=1 {apiVersion=1, kind=2}, raw=2,
// contentEncoding=3, contentType=4}; raw is the typed message. Objects come out in the same plain
// JSON shape a JSON body of the same object has, so every handler after the codec is shared.
import { badRequest, notAcceptable, unsupportedMediaType, type Status } from '../../api/status.ts';
import type { KObject } from '../../api/types.ts';
import { decodeMessage } from './protobuf-decode.ts';
import { encodeMessage } from './protobuf-encode.ts';
import { messageFor } from './protobuf-messages.ts';
import { ProtoReader, ProtoWriter, WIRE, type WireType } from './protobuf-wire.ts';

export const PROTOBUF_MAGIC = Uint8Array.of(0x6b, 0x38, 0x73, 0x00);
const PROTOBUF_MEDIA_TYPE = 'application/vnd.kubernetes.protobuf';

/** Whether objects of this kind (or this list kind) can be read and written as Protobuf. */
export function supportsProtobuf(apiVersion: string, kind: string): boolean {
  return messageFor(apiVersion, kind) !== undefined;
}

/**
 * Decodes a request body. apiVersion and kind come from the envelope; metadata is always present
 * ({} when the wire has none). Throws a StatusError only: 400 for malformed bytes, 415 for a kind
 * (or an inner content type) not served as Protobuf.
 */
export function decodeProtobuf(body: Uint8Array): KObject {
  if (body.length < PROTOBUF_MAGIC.length || PROTOBUF_MAGIC.some((b, i) => body[i] !== b)) {
    throw badRequest('invalid protobuf body: it must start with the 4 bytes 6b 38 73 00 ("k8s\\0")');
  }
  const env = readEnvelope(new ProtoReader(body, PROTOBUF_MAGIC.length));
  if (!env.apiVersion || !env.kind) throw badRequest('invalid protobuf body: the envelope names no apiVersion and kind');
  if (env.contentEncoding) {
    throw badRequest(`invalid protobuf body: contentEncoding "${env.contentEncoding}" is not supported; send the object unencoded`);
  }
  if (env.contentType && env.contentType !== PROTOBUF_MEDIA_TYPE) {
    throw unsupportedMediaType(env.contentType, [PROTOBUF_MEDIA_TYPE]);
  }
  const msg = messageFor(env.apiVersion, env.kind);
  if (!msg) throw unsupportedMediaType(`${PROTOBUF_MEDIA_TYPE} for ${env.apiVersion} ${env.kind}`, ['application/json']);
  const fields = decodeMessage(new ProtoReader(env.raw), msg);
  return { apiVersion: env.apiVersion, kind: env.kind, ...fields } as KObject;
}

/** Encodes an object, a list or a Status. Callers check supportsProtobuf first; other kinds are a 406. */
export function encodeProtobuf(obj: KObject | Status): Uint8Array {
  const apiVersion = obj.apiVersion ?? '';
  const kind = obj.kind ?? '';
  const msg = messageFor(apiVersion, kind);
  if (!msg) throw notAcceptable(['application/json']);
  const raw = new ProtoWriter();
  encodeMessage(obj as unknown as Record<string, unknown>, msg, raw, kind);
  const typeMeta = new ProtoWriter().tag(1, WIRE.bytes).string(apiVersion).tag(2, WIRE.bytes).string(kind);
  const envelope = new ProtoWriter().tag(1, WIRE.bytes).embed(typeMeta).tag(2, WIRE.bytes).embed(raw).finish();
  const out = new Uint8Array(PROTOBUF_MAGIC.length + envelope.length);
  out.set(PROTOBUF_MAGIC);
  out.set(envelope, PROTOBUF_MAGIC.length);
  return out;
}

interface Envelope {
  apiVersion: string;
  kind: string;
  raw: Uint8Array;
  contentEncoding: string;
  contentType: string;
}

function readEnvelope(r: ProtoReader): Envelope {
  const env: Envelope = { apiVersion: '', kind: '', raw: new Uint8Array(0), contentEncoding: '', contentType: '' };
  while (!r.done) {
    const { no, wire } = r.tag();
    if (no > 4) {
      r.skip(wire);
      continue;
    }
    expectBytes(wire, no, 'Unknown');
    if (no === 1) readTypeMeta(r.message(), env);
    else if (no === 2) env.raw = r.bytes();
    else if (no === 3) env.contentEncoding = r.string();
    else env.contentType = r.string();
  }
  return env;
}

function readTypeMeta(r: ProtoReader, env: Envelope): void {
  while (!r.done) {
    const { no, wire } = r.tag();
    if (no > 2) {
      r.skip(wire);
      continue;
    }
    expectBytes(wire, no, 'TypeMeta');
    if (no === 1) env.apiVersion = r.string();
    else env.kind = r.string();
  }
}

function expectBytes(wire: WireType, no: number, msg: string): void {
  if (wire !== WIRE.bytes) throw badRequest(`invalid protobuf body: field ${no} of ${msg} has wire type ${wire}, expected 2`);
}
