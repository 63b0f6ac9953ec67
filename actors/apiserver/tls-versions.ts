// The TLS options as the real server names them (Go's crypto/tls), in Node's terms: the lowest
// version (`VersionTLS12` → `TLSv1.2`) and the TLS 1.2 cipher suites (`TLS_ECDHE_ECDSA_WITH_
// AES_128_GCM_SHA256` → OpenSSL's `ECDHE-ECDSA-AES128-GCM-SHA256`). TLS 1.3's suites are not
// configurable, in Go as here: named in the list, they are accepted and change nothing.

const VERSIONS: Record<string, 'TLSv1' | 'TLSv1.1' | 'TLSv1.2' | 'TLSv1.3'> = {
  VersionTLS10: 'TLSv1', VersionTLS11: 'TLSv1.1', VersionTLS12: 'TLSv1.2', VersionTLS13: 'TLSv1.3',
};

/** Go's TLS 1.2 suite names and OpenSSL's. */
const SUITES: Record<string, string> = {
  TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256: 'ECDHE-ECDSA-AES128-GCM-SHA256',
  TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256: 'ECDHE-RSA-AES128-GCM-SHA256',
  TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384: 'ECDHE-ECDSA-AES256-GCM-SHA384',
  TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384: 'ECDHE-RSA-AES256-GCM-SHA384',
  TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305: 'ECDHE-ECDSA-CHACHA20-POLY1305',
  TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256: 'ECDHE-ECDSA-CHACHA20-POLY1305',
  TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305: 'ECDHE-RSA-CHACHA20-POLY1305',
  TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256: 'ECDHE-RSA-CHACHA20-POLY1305',
  TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA: 'ECDHE-ECDSA-AES128-SHA',
  TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA: 'ECDHE-RSA-AES128-SHA',
  TLS_ECDHE_ECDSA_WITH_AES_256_CBC_SHA: 'ECDHE-ECDSA-AES256-SHA',
  TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA: 'ECDHE-RSA-AES256-SHA',
  TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA256: 'ECDHE-ECDSA-AES128-SHA256',
  TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA256: 'ECDHE-RSA-AES128-SHA256',
  TLS_RSA_WITH_AES_128_GCM_SHA256: 'AES128-GCM-SHA256',
  TLS_RSA_WITH_AES_256_GCM_SHA384: 'AES256-GCM-SHA384',
  TLS_RSA_WITH_AES_128_CBC_SHA: 'AES128-SHA',
  TLS_RSA_WITH_AES_256_CBC_SHA: 'AES256-SHA',
  TLS_RSA_WITH_AES_128_CBC_SHA256: 'AES128-SHA256',
};
const TLS13 = new Set(['TLS_AES_128_GCM_SHA256', 'TLS_AES_256_GCM_SHA384', 'TLS_CHACHA20_POLY1305_SHA256']);

/** The option's rule: every name a suite Go knows (and this table maps). */
export function knownCipherSuites(names: string[]): string | undefined {
  const bad = names.find((n) => !(n in SUITES) && !TLS13.has(n));
  return bad === undefined ? undefined : `unknown cipher suite ${JSON.stringify(bad)}: use Go's names, e.g. TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256`;
}

/** Node's server options for the given Go-named ones: nothing when neither is set (Node's defaults, TLS 1.2 up). */
export function tlsServerOptions(o: { tlsMinVersion?: string; tlsCipherSuites?: string[] }): { minVersion?: 'TLSv1' | 'TLSv1.1' | 'TLSv1.2' | 'TLSv1.3'; ciphers?: string } {
  const out: { minVersion?: 'TLSv1' | 'TLSv1.1' | 'TLSv1.2' | 'TLSv1.3'; ciphers?: string } = {};
  if (o.tlsMinVersion) out.minVersion = VERSIONS[o.tlsMinVersion];
  const suites = (o.tlsCipherSuites ?? []).filter((n) => n in SUITES).map((n) => SUITES[n]!);
  // TLS 1.3's own suites stay on: OpenSSL keeps them apart from this list, as Go does.
  if (suites.length) out.ciphers = [...new Set(suites)].join(':');
  return out;
}
