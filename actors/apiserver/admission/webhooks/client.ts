// The call itself: one HTTPS POST of the review (apiserver pkg/util/webhook client.go and the
// rest client it builds). The webhook's certificate must chain to its caBundle (the system's
// roots without one) and name the host: the URL's, or `<service>.<namespace>.svc` for a service
// reference, whose address service-resolver.ts finds. timeoutSeconds bounds the whole request, as
// the real context deadline does, and is told to the webhook as `?timeout=<n>s`. Failures are
// worded as Go's client words them (`Post "<url>": dial tcp ...: connect: connection refused`),
// answers other than 2xx as client-go's generic server responses.
import { request, type RequestOptions } from 'node:https';
import { isIP } from 'node:net';
import { posix } from 'node:path';
import { readAnswer } from '../../answer-body.ts';
import { parseGoUrl } from '../../validation/webhook-client-config.ts';
import { resolveService, type Address, type StoreReader } from './service-resolver.ts';
import type { Hook } from './source.ts';

/** A webhook's answer: its status code, content type and body. */
export interface Answer { code: number; contentType: string; text: string }

/** Why a call failed, in Go's words; `stage` says which of the client's steps failed. */
export class CallFailure extends Error {
  override readonly name = 'CallFailure';
  constructor(readonly stage: 'client' | 'post', message: string) {
    super(message);
  }
}

const MAX_ANSWER_BYTES = 4 * 1024 * 1024;
const USER_AGENT = 'kube-apiserver-admission';

interface Target {
  /** The URL as Go prints it: scheme, host (with the port as written), cleaned path, the timeout. */
  shown: string;
  /** What the Host header and the certificate name. */
  hostHeader: string;
  serverName: string;
  path: string;
  address: () => Address | Promise<Address>;
}

/** path.Join("/", p): cleaned, rooted, without a trailing slash. */
const cleanPath = (p: string) => posix.normalize(`/${p}`).replace(/(.)\/$/, '$1');

function splitHostPort(host: string): Address {
  const bracket = /^\[([^\]]*)\](?::(\d+))?$/.exec(host);
  if (bracket) return { host: bracket[1]!, port: bracket[2] ? Number(bracket[2]) : 443 };
  const colon = host.lastIndexOf(':');
  return colon >= 0 && host.indexOf(':') === colon ? { host: host.slice(0, colon), port: Number(host.slice(colon + 1)) || 443 } : { host, port: 443 };
}

function targetOf(hook: Hook, read: StoreReader): Target {
  const timeout = `?timeout=${hook.timeoutSeconds}s`;
  const ref = hook.clientConfig.service;
  if (ref) {
    const serverName = `${ref.name}.${ref.namespace}.svc`;
    const path = cleanPath(ref.path);
    return { shown: `https://${serverName}:${ref.port}${path}${timeout}`, hostHeader: `${serverName}:${ref.port}`, serverName, path: `${path}${timeout}`,
      address: () => resolveService(ref, read) };
  }
  const u = parseGoUrl(hook.clientConfig.url ?? '');
  if ('error' in u) throw new CallFailure('client', `Unparsable URL: ${u.error}`);
  const path = cleanPath(u.path);
  const address = splitHostPort(u.host);
  return { shown: `https://${u.host}${path}${timeout}`, hostHeader: u.host, serverName: address.host, path: `${path}${timeout}`, address: () => address };
}

const joinHostPort = (a: Address) => (a.host.includes(':') ? `[${a.host}]:${a.port}` : `${a.host}:${a.port}`);

/** Go's words for a failed dial or handshake. */
function goReason(e: NodeJS.ErrnoException & { cert?: { subjectaltname?: string } }, address: Address, serverName: string, timedOut: boolean): string {
  if (timedOut) return 'context deadline exceeded';
  switch (e.code) {
    case 'ECONNREFUSED': return `dial tcp ${joinHostPort(address)}: connect: connection refused`;
    case 'EHOSTUNREACH': return `dial tcp ${joinHostPort(address)}: connect: no route to host`;
    case 'ENOTFOUND': case 'EAI_AGAIN': return `dial tcp: lookup ${address.host}: no such host`;
    case 'ECONNRESET': return 'EOF';
    case 'DEPTH_ZERO_SELF_SIGNED_CERT': case 'SELF_SIGNED_CERT_IN_CHAIN': case 'UNABLE_TO_VERIFY_LEAF_SIGNATURE':
    case 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY': case 'UNABLE_TO_GET_ISSUER_CERT':
      return 'tls: failed to verify certificate: x509: certificate signed by unknown authority';
    case 'CERT_HAS_EXPIRED': case 'CERT_NOT_YET_VALID':
      return 'tls: failed to verify certificate: x509: certificate has expired or is not yet valid';
    case 'ERR_TLS_CERT_ALTNAME_INVALID': {
      const byIp = isIP(serverName) !== 0;
      const names = (e.cert?.subjectaltname ?? '').split(', ').filter((n) => n.startsWith(byIp ? 'IP Address:' : 'DNS:')).map((n) => n.slice(n.indexOf(':') + 1));
      return `tls: failed to verify certificate: x509: certificate is valid for ${names.join(', ')}, not ${serverName}`;
    }
    default: return e.message;
  }
}

/** The CA bundle as Node takes it; throws what client-go says of a bundle that holds no certificate. */
function trusted(caPem: string): string | undefined {
  if (caPem === '') return undefined;
  if (!caPem.includes('-----BEGIN CERTIFICATE-----'))
    throw new CallFailure('client', 'unable to load root certificates: unable to parse bytes as PEM block');
  return caPem;
}

/** POSTs `body` to the webhook; rejects with a CallFailure in Go's words. */
export async function postReview(hook: Hook, body: string, read: StoreReader): Promise<Answer> {
  const target = targetOf(hook, read);
  const ca = trusted(hook.clientConfig.caPem);
  let address: Address;
  try {
    address = await target.address();
  } catch (e) {
    throw new CallFailure('post', `Post ${JSON.stringify(target.shown)}: ${(e as Error).message}`);
  }
  const signal = AbortSignal.timeout(hook.timeoutSeconds * 1000);
  const options: RequestOptions = {
    host: address.host, port: address.port, path: target.path, method: 'POST', agent: false, signal,
    ...(ca ? { ca } : {}), ...(isIP(target.serverName) ? {} : { servername: target.serverName }),
    headers: { host: target.hostHeader, 'content-type': 'application/json', accept: 'application/json, */*', 'user-agent': USER_AGENT,
      'content-length': String(Buffer.byteLength(body)) },
  };
  return new Promise<Answer>((resolve, reject) => {
    const fail = (e: Error) => reject(new CallFailure('post', `Post ${JSON.stringify(target.shown)}: ${goReason(e, address, target.serverName, signal.aborted)}`));
    const req = request(options, (res) => readAnswer(res, MAX_ANSWER_BYTES).then((text) => resolve({ code: res.statusCode ?? 0, contentType: String(res.headers['content-type'] ?? ''), text }), fail));
    req.on('error', fail);
    req.end(body);
  });
}
