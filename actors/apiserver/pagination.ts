// Continue tokens: the revision of the first chunk and the last key served, so every chunk of a
// paginated list comes from that one snapshot. Opaque to clients (base64 JSON, like real servers').
import { badRequest } from '../api/status.ts';

export interface ContinueToken {
  revision: number;
  /** The last key already returned; the next chunk starts after it. */
  after: string;
}

export function encodeContinue(t: ContinueToken): string {
  return Buffer.from(JSON.stringify({ v: 'meta.k8s.io/v1', rv: t.revision, start: t.after })).toString('base64url');
}

export function decodeContinue(token: string, collectionPrefix: string): ContinueToken {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
  } catch {
    throw badRequest('continue key is not valid: illegal base64 data or JSON');
  }
  const p = parsed as { v?: unknown; rv?: unknown; start?: unknown };
  if (p?.v !== 'meta.k8s.io/v1') throw badRequest('continue key is not valid: incorrect encoded start resourceVersion (version meta.k8s.io/v1)');
  if (typeof p.rv !== 'number' || !Number.isSafeInteger(p.rv) || p.rv <= 0) throw badRequest('continue key is not valid: incorrect encoded start resourceVersion (version meta.k8s.io/v1)');
  if (typeof p.start !== 'string' || !p.start.startsWith(collectionPrefix)) throw badRequest('continue key is not valid: the key does not belong to this list');
  return { revision: p.rv, after: p.start };
}
