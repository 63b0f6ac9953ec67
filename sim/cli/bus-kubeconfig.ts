// How a component in multi-process mode reaches the API server's bus, as itself: the server and
// the credentials of a kubeconfig (a component's --orchconfig, the API server's --bus-kubeconfig;
// `orchsim credentials` writes them), the server overridden by --master or --bus when given. Its
// NATS user and password open the connection, with replies on the user's own inbox; its API
// token rides on every request it sends (CredentialedBus), as over HTTPS.
import { CredentialedBus } from '../../actors/client/credentials.ts';
import { OptionError } from '../../actors/api/options/table.ts';
import { BusAuthorizationError, type Bus } from '../../transport/bus.ts';
import { isNatsUrl, NatsBus } from '../../transport/nats-bus.ts';
import { inboxPrefix } from '../nats-permissions.ts';
import { readMappingFile } from './component-run.ts';

export interface BusAddress {
  /** nats://HOST:PORT, or several comma-separated. */
  url: string;
  /** The kubeconfig it came from: for messages. */
  file?: string;
  /** The NATS user and password. */
  user?: string;
  password?: string;
  /** The API bearer token. */
  token?: string;
}

interface Kubeconfig {
  clusters?: { name?: string; cluster?: { server?: unknown } }[];
  users?: { name?: string; user?: { username?: unknown; password?: unknown; token?: unknown } }[];
  contexts?: { name?: string; context?: { cluster?: string; user?: string } }[];
  'current-context'?: string;
}

const text = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

/**
 * The bus and credentials: `master` (when given) as the server, else the kubeconfig's (its
 * current context's cluster, or its only cluster); the credentials of its current context's user,
 * or its only user. `option` names where a kubeconfig would be given, for the message when neither is.
 */
export function busAddress(master: string | undefined, kubeconfig: string | undefined, option = '--orchconfig FILE'): BusAddress {
  if (kubeconfig === undefined) {
    if (master === undefined || master === '') throw new OptionError(`give --master nats://HOST:PORT or ${option}: the bus the API server serves on (orchsim apiserver --bus nats://HOST:PORT)`);
    return { url: master };
  }
  const doc = readMappingFile(kubeconfig) as Kubeconfig;
  const context = doc.contexts?.find((c) => c.name === doc['current-context'])?.context;
  const only = <T>(list: T[] | undefined) => (list?.length === 1 ? list[0] : undefined);
  const cluster = context ? doc.clusters?.find((c) => c.name === context.cluster) : only(doc.clusters);
  const user = (context?.user !== undefined ? doc.users?.find((u) => u.name === context.user) : only(doc.users))?.user;
  const server = master !== undefined && master !== '' ? master : text(cluster?.cluster?.server);
  if (server === undefined) throw new OptionError(`${kubeconfig}: no server found (its current context's cluster, or its only cluster, must have cluster.server)`);
  const username = text(user?.username);
  const password = text(user?.password);
  if ((username === undefined) !== (password === undefined)) throw new OptionError(`${kubeconfig}: its user has a ${username ? 'username without a password' : 'password without a username'}: the bus wants both`);
  const token = text(user?.token);
  return { url: server, file: kubeconfig, ...(username ? { user: username, password } : {}), ...(token ? { token } : {}) };
}

/**
 * Connects as the address says; a bus whose API requests carry its token, if it has one. A refusal
 * says which file's credentials were refused and what to check.
 */
export async function connectBus(a: BusAddress, name: string): Promise<Bus> {
  if (!isNatsUrl(a.url))
    throw new OptionError(`invalid API server address ${JSON.stringify(a.url)}: must be nats://HOST:PORT, the bus the API server serves on (orchsim components reach it over its bus, not HTTPS)`);
  let nats: NatsBus;
  try {
    nats = await NatsBus.connect({ servers: a.url, name, ...(a.user !== undefined ? { user: a.user, pass: a.password!, inboxPrefix: inboxPrefix(a.user) } : {}) });
  } catch (e) {
    if (!(e instanceof BusAuthorizationError)) throw e;
    const advice = a.user === undefined
      ? `give the component a kubeconfig with its NATS user and password (orchsim credentials writes one per component)`
      : `${a.file} and the server's nats-server.conf must come from the same run of orchsim credentials`;
    throw new Error(`${e.message}; ${advice}`, { cause: e });
  }
  return a.token === undefined ? nats : new CredentialedBus(nats, a.token);
}
