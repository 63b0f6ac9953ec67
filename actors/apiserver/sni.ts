// --tls-sni-cert-key: certificates served by the name a client asks for (TLS SNI), as the real
// server picks them: each pair serves the names given with it (`*.example.com` covering one label),
// or, when none are given, the DNS names of its certificate (its subjectAltName, else its
// CommonName); a name two pairs serve goes to the one given first. Any other name gets the
// default serving certificate.
import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createSecureContext, type SecureContext } from 'node:tls';
import type { NamedCertKey } from '../api/options/kinds.ts';

/** A certificate and the names it serves. */
export interface SniContext {
  names: string[];
  context: SecureContext;
}

/** The pairs read (a file that cannot be read, or a pair that does not match, stops the start with its name). */
export function sniContexts(pairs: readonly NamedCertKey[]): SniContext[] {
  return pairs.map((p) => {
    let cert: string;
    let key: string;
    try {
      cert = readFileSync(p.certFile, 'utf8');
      key = readFileSync(p.keyFile, 'utf8');
    } catch (e) {
      throw new Error(`--tls-sni-cert-key ${p.certFile},${p.keyFile}: ${(e as Error).message}`);
    }
    let context: SecureContext;
    try {
      context = createSecureContext({ cert, key });
    } catch (e) {
      throw new Error(`--tls-sni-cert-key ${p.certFile},${p.keyFile}: ${(e as Error).message}`);
    }
    return { names: (p.names.length ? p.names : namesOf(cert)).map((n) => n.toLowerCase()), context };
  });
}

/** A certificate's DNS names: its subjectAltName's, else its CommonName. */
function namesOf(pem: string): string[] {
  const x = new X509Certificate(pem);
  const dns = (x.subjectAltName ?? '').split(/,\s*/).filter((e) => e.startsWith('DNS:')).map((e) => e.slice(4));
  if (dns.length) return dns;
  const cn = /^CN=(.*)$/m.exec(x.subject)?.[1];
  return cn ? [cn] : [];
}

const matches = (pattern: string, name: string) =>
  pattern === name || (pattern.startsWith('*.') && name.endsWith(pattern.slice(1)) && !name.slice(0, -pattern.length + 1).includes('.'));

/** The context for `servername`, or undefined for the default certificate. */
export function pickContext(served: readonly SniContext[], servername: string): SecureContext | undefined {
  const name = servername.toLowerCase();
  return served.find((s) => s.names.some((p) => matches(p, name)))?.context;
}
