// The webhook authorizer's configuration file (--authorization-webhook-config-file): a kubeconfig
// whose cluster is the remote service and whose user is the API server's credentials towards it.
// As client-go reads it: the current context's cluster and user, or the first of each; file
// paths relative to the kubeconfig's own folder; `-data` fields base64-encoded PEM. The server
// URL is posted to exactly as written (its path included).
import { readFileSync } from 'node:fs';
import { dirname, isAbsolute, join } from 'node:path';
import { parse as parseYaml } from 'yaml';

export interface WebhookEndpoint {
  /** Where SubjectAccessReviews are posted. */
  url: URL;
  /** PEM of the CA that signs the service's certificate; absent: the host's roots. */
  ca?: string;
  /** The client certificate and key presented to the service. */
  cert?: string;
  key?: string;
  /** A bearer token sent to the service. */
  token?: string;
  insecureSkipTlsVerify: boolean;
}

type Named<K extends string> = { name?: string } & { [k in K]?: Record<string, unknown> };

/** The PEM of `field` (a path) or `field-data` (base64), or undefined when neither is set. */
function pem(entry: Record<string, unknown>, field: string, base: string, read: (path: string) => string): string | undefined {
  const data = entry[`${field}-data`];
  if (typeof data === 'string' && data !== '') return Buffer.from(data, 'base64').toString('utf8');
  const path = entry[field];
  if (typeof path !== 'string' || path === '') return undefined;
  return read(isAbsolute(path) ? path : join(base, path));
}

function pick<K extends string>(list: unknown, key: K, wanted: unknown): Record<string, unknown> | undefined {
  if (!Array.isArray(list) || list.length === 0) return undefined;
  const entries = list as Named<K>[];
  const chosen = typeof wanted === 'string' ? entries.find((e) => e?.name === wanted) : entries[0];
  return chosen?.[key];
}

/** Reads the kubeconfig at `path`; every error names the file and says what to fix. */
export function readWebhookConfig(path: string): WebhookEndpoint {
  const fail = (why: string): never => { throw new Error(`--authorization-webhook-config-file ${path}: ${why}`); };
  const read = (file: string) => {
    try {
      return readFileSync(file, 'utf8');
    } catch (e) {
      return fail(`cannot read ${file}: ${(e as Error).message}`);
    }
  };
  let doc: Record<string, unknown>;
  try {
    doc = parseYaml(read(path)) as Record<string, unknown>;
  } catch (e) {
    return fail(`not YAML or JSON: ${(e as Error).message.split('\n')[0]}`);
  }
  if (doc === null || typeof doc !== 'object' || Array.isArray(doc)) return fail('must be a kubeconfig (clusters, users, contexts)');
  const contexts = Array.isArray(doc.contexts) ? (doc.contexts as Named<'context'>[]) : [];
  const context = contexts.find((c) => c?.name === doc['current-context'])?.context;
  const cluster = pick(doc.clusters, 'cluster', context?.cluster);
  if (!cluster) return fail('no cluster: give clusters[].cluster.server, the URL SubjectAccessReviews are posted to');
  const server = cluster.server;
  if (typeof server !== 'string' || server === '') return fail('its cluster has no server: the URL SubjectAccessReviews are posted to');
  let url: URL;
  try {
    url = new URL(server);
  } catch {
    return fail(`server ${JSON.stringify(server)} is not a URL`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return fail(`server ${JSON.stringify(server)} must be an https:// URL`);
  const base = dirname(path);
  const user = pick(doc.users, 'user', context?.user) ?? {};
  const endpoint: WebhookEndpoint = { url, insecureSkipTlsVerify: cluster['insecure-skip-tls-verify'] === true };
  const ca = pem(cluster, 'certificate-authority', base, read);
  const cert = pem(user, 'client-certificate', base, read);
  const key = pem(user, 'client-key', base, read);
  if ((cert === undefined) !== (key === undefined)) return fail('its user needs both client-certificate and client-key, or neither');
  if (ca !== undefined) endpoint.ca = ca;
  if (cert !== undefined && key !== undefined) Object.assign(endpoint, { cert, key });
  if (typeof user.token === 'string' && user.token !== '') endpoint.token = user.token;
  return endpoint;
}
