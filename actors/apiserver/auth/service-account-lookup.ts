// The half of service-account token verification that reads the store, as the real validators
// do (pkg/serviceaccount/claims.go and legacy.go). A bound token stands only while its service
// account, and the pod, secret or node it is bound to, are stored with the uids it names and not
// deleted for longer than the minute of leeway; this check always runs, as on the real server.
// A legacy token (secret-based) is checked against its Secret and ServiceAccount only with
// --service-account-lookup. Answers the reason a token no longer stands, or undefined.
import { timingSafeEqual } from 'node:crypto';
import { lookupResource, type ResourceType } from '../../api/resources.ts';
import { notFound } from '../../api/status.ts';
import type { KObject } from '../../api/types.ts';
import { LEEWAY_MS, type StoredCheck } from './service-account-verify.ts';

/** Reads one stored object, or undefined when there is none. */
export type ObjectReader = (type: ResourceType, namespace: string | undefined, name: string) => Promise<KObject | undefined>;

const INVALID_SINCE_LABEL = 'kubernetes.io/legacy-token-invalid-since';

const types = {
  serviceaccounts: lookupResource('', 'v1', 'serviceaccounts')!,
  secrets: lookupResource('', 'v1', 'secrets')!,
  pods: lookupResource('', 'v1', 'pods')!,
  nodes: lookupResource('', 'v1', 'nodes')!,
};

/** A deletion older than the leeway: the object is as good as gone. */
function deletedBefore(obj: KObject, cutoffMs: number): boolean {
  const at = obj.metadata.deletionTimestamp;
  return typeof at === 'string' && Date.parse(at) < cutoffMs;
}

export async function storedCheckFails(check: StoredCheck, read: ObjectReader, nowMs: number): Promise<string | undefined> {
  return check.kind === 'bound' ? boundCheck(check, read, nowMs - LEEWAY_MS) : legacyCheck(check, read);
}

async function boundCheck(c: Extract<StoredCheck, { kind: 'bound' }>, read: ObjectReader, cutoffMs: number): Promise<string | undefined> {
  const { namespace: ns, serviceAccount: saRef } = c;
  const sa = await read(types.serviceaccounts, ns, saRef.name);
  if (!sa) return notFound({ group: '', resource: 'serviceaccounts', name: saRef.name }).message;
  if (sa.metadata.uid !== saRef.uid) return `service account UID (${sa.metadata.uid}) does not match claim (${saRef.uid})`;
  if (deletedBefore(sa, cutoffMs)) return `service account ${ns}/${saRef.name} has been deleted`;
  const bound: [keyof typeof types, { name: string; uid: string } | undefined, string][] = [
    ['secrets', c.secret, 'secret UID (%s) does not match service account secret ref claim (%s)'],
    ['pods', c.pod, 'pod UID (%s) does not match service account pod ref claim (%s)'],
    ['nodes', c.node, 'node UID (%s) does not match service account node ref claim (%s)'],
  ];
  for (const [resource, ref, mismatch] of bound) {
    if (!ref) continue;
    const obj = await read(types[resource], resource === 'nodes' ? undefined : ns, ref.name);
    if (!obj) return 'service account token has been invalidated';
    if (obj.metadata.uid !== ref.uid) return mismatch.replace('%s', String(obj.metadata.uid)).replace('%s', ref.uid);
    if (deletedBefore(obj, cutoffMs)) return 'service account token has been invalidated';
  }
  return undefined;
}

/** The Secret's `token` (base64, as data is stored) is the token presented: compared in constant time, as the real one. */
function sameToken(data: Record<string, unknown>, token: string): boolean {
  const stored = typeof data.token === 'string' ? Buffer.from(data.token, 'base64') : Buffer.alloc(0);
  const given = Buffer.from(token, 'utf8');
  return stored.length === given.length && timingSafeEqual(stored, given);
}

async function legacyCheck(c: Extract<StoredCheck, { kind: 'legacy' }>, read: ObjectReader): Promise<string | undefined> {
  const { namespace: ns, serviceAccount: saRef } = c;
  const secret = await read(types.secrets, ns, c.secretName);
  if (!secret || secret.metadata.deletionTimestamp) return 'Token has been invalidated';
  if (!sameToken((secret.data ?? {}) as Record<string, unknown>, c.token)) return 'Token does not match server\'s copy';
  const sa = await read(types.serviceaccounts, ns, saRef.name);
  if (!sa) return notFound({ group: '', resource: 'serviceaccounts', name: saRef.name }).message;
  if (sa.metadata.deletionTimestamp) return `ServiceAccount ${ns}/${saRef.name} has been deleted`;
  if (sa.metadata.uid !== saRef.uid) return `ServiceAccount UID (${sa.metadata.uid}) does not match claim (${saRef.uid})`;
  if (secret.metadata.labels?.[INVALID_SINCE_LABEL])
    return `the token in secret ${ns}/${c.secretName} for service account ${ns}/${saRef.name} has been marked invalid. Use tokens from the TokenRequest API or manually created secret-based tokens, or remove the '${INVALID_SINCE_LABEL}' label from the secret to temporarily allow use of this token`;
  return undefined;
}
