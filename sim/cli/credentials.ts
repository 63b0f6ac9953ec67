// `orchsim credentials`: what multi-process mode needs so that the bus is authorized too. Into a
// new directory (mode 0700, files 0600), fresh secrets from the system's random source:
//   nats-server.conf              one NATS user per component, and the subjects each may use (sim/nats-permissions.ts)
//   tokens.csv                    the components' API tokens, for orchsim apiserver --token-auth-file
//   <component>.kubeconfig        per component: the bus as its server, its NATS user and password, its API token
//   service-account.key           the key the API server signs service-account tokens with, so that the controller
//                                 manager's --use-service-account-credentials can get each controller's token
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { helpText } from '../../actors/api/options/help.ts';
import { bool, string, strings } from '../../actors/api/options/kinds.ts';
import { OptionError, OptionTable, type OptionSpec } from '../../actors/api/options/table.ts';
import { validateName } from '../../actors/apiserver/validation/names.ts';
import { CONTROLLER_MANAGER, nodeIdentity, SCHEDULER, SYSTEM_AUTHENTICATED, type Identity } from '../../actors/client/credentials.ts';
import { isNatsUrl } from '../../transport/nats-bus.ts';
import { natsServerConfig, natsUser, permissionsOf, type Component } from '../nats-permissions.ts';
import { writeKubeconfig } from './kubeconfig.ts';
import { SERVE_ISSUER, SERVE_KEY_FILE, serveSigningKeyFile } from './service-account-key.ts';

interface CredentialsOptions {
  out?: string;
  bus?: string;
  nodes?: string[];
}

const GROUP = 'Options';
const nodeNameProblem = (name: string): string | undefined => validateName(name, 'subdomain', 'node')[0]?.message;
const TABLE = new OptionTable<CredentialsOptions>('orchsim credentials', [
  { name: 'out', kind: string, key: 'out', group: GROUP, help: 'the directory the files go to (required): new, or empty; made readable by its owner only' },
  { name: 'bus', kind: string, key: 'bus', group: GROUP, rule: (v: string) => (isNatsUrl(v) ? undefined : 'must be nats://HOST:PORT (or several, comma-separated)'),
    help: 'the NATS server the components reach (required): the server of every kubeconfig written, and where nats-server.conf listens when it is one address' },
  { name: 'nodes', kind: strings, key: 'nodes', group: GROUP, rule: (v: string[]) => nodesProblem(v),
    help: 'the names of the nodes (required), comma-separated, as each node agent\'s --hostname-override gives it: one NATS user, token and kubeconfig each' },
  { name: 'help', short: 'h', kind: bool, default: false, group: GROUP, help: 'this help' },
] as OptionSpec<CredentialsOptions>[]);

function nodesProblem(nodes: string[]): string | undefined {
  if (nodes.length === 0) return 'must name at least one node';
  for (const n of nodes) {
    const bad = nodeNameProblem(n);
    if (bad) return `node ${JSON.stringify(n)} is not a valid node name: ${bad.replace(/^Invalid value: "[^"]*": /, '')}`;
  }
  const twice = nodes.find((n, i) => nodes.indexOf(n) !== i);
  return twice === undefined ? undefined : `node ${JSON.stringify(twice)} is named twice`;
}

const SUMMARY = 'Credentials for multi-process mode, so that the bus is authorized like HTTPS: a nats-server configuration with one user per component '
  + '(the API server; the scheduler, the controller manager and each node, which may only send API requests and subscribe to the watch subjects they follow), '
  + 'the components\' API tokens for orchsim apiserver --token-auth-file, and one kubeconfig per component for its --orchconfig '
  + '(the API server\'s for --bus-kubeconfig), and the key the API server signs service-account tokens with, for the controller manager\'s '
  + '--use-service-account-credentials. Every secret is fresh; the directory and its files are readable by their owner only.';

export const credentialsHelp = (): string => helpText('orchsim credentials', SUMMARY, TABLE);

/** A secret: 32 bytes of the system's random source, URL-safe. */
const secret = () => randomBytes(32).toString('base64url');

interface Member {
  component: Component;
  /** Its API identity; none for the API server, which serves the API rather than calling it. */
  identity?: Identity;
}

/** `out`, made or found empty, readable by its owner only. */
function emptyDirectory(out: string): void {
  let entries: string[] | undefined;
  try {
    if (!statSync(out).isDirectory()) throw new OptionError(`--out ${out} is a file: give a new or empty directory`);
    entries = readdirSync(out);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e instanceof OptionError ? e : new OptionError(`--out ${out}: ${(e as Error).message}`);
  }
  if (entries && entries.length > 0)
    throw new OptionError(`--out ${out} already holds ${entries.slice(0, 3).join(', ')}${entries.length > 3 ? ', ...' : ''}: credentials are written into a new or empty directory, never over others`);
  mkdirSync(out, { recursive: true, mode: 0o700 });
  chmodSync(out, 0o700);
}

/** The token file's line: token,user,uid,"groups" (system:authenticated is every token's anyway). */
const tokenLine = (token: string, user: string, id: Identity) =>
  `${token},${id.username},${user},"${id.groups.filter((g) => g !== SYSTEM_AUTHENTICATED).join(',')}"`;

/** Where nats-server listens: the one address of the bus, or none when it names several servers. */
function listenOf(bus: string): string | undefined {
  if (bus.includes(',')) return undefined;
  const url = new URL(bus);
  return `${url.hostname}:${url.port || 4222}`;
}

export function credentialsCommand(argv: string[], log: (line: string) => void = console.log): number {
  const { options, extra, positional } = TABLE.parse(argv);
  if (extra.help === true) {
    log(credentialsHelp());
    return 0;
  }
  if (positional.length > 0) throw new OptionError(`unexpected argument ${JSON.stringify(positional[0])}: orchsim credentials takes only flags`);
  const missing = (['out', 'bus', 'nodes'] as const).filter((k) => options[k] === undefined);
  if (missing.length) throw new OptionError(`${missing.map((k) => `--${k}`).join(', ')} ${missing.length > 1 ? 'are' : 'is'} required\n\n${credentialsHelp()}`);
  const out = resolve(options.out!);
  const bus = options.bus!;
  emptyDirectory(out);
  const members: Member[] = [
    { component: { kind: 'apiserver' } },
    { component: { kind: 'scheduler' }, identity: SCHEDULER },
    { component: { kind: 'controller-manager' }, identity: CONTROLLER_MANAGER },
    ...options.nodes!.map((name): Member => ({ component: { kind: 'node', name }, identity: nodeIdentity(name) })),
  ];
  const users = members.map((m) => ({ ...m, user: natsUser(m.component), password: secret(), token: m.identity && secret() }));
  const write = (file: string, text: string) => writeFileSync(join(out, file), text, { mode: 0o600, flag: 'wx' });
  write('nats-server.conf', natsServerConfig(users.map((u) => ({ user: u.user, password: u.password, permissions: permissionsOf(u.component) })), listenOf(bus)));
  write('tokens.csv', users.flatMap((u) => (u.token && u.identity ? [tokenLine(u.token, u.user, u.identity)] : [])).join('\n') + '\n');
  for (const u of users)
    writeKubeconfig(join(out, `${u.user}.kubeconfig`), bus, undefined, { username: u.user, password: u.password, ...(u.token ? { token: u.token } : {}) });
  serveSigningKeyFile(out);
  log(`wrote to ${out}: nats-server.conf, tokens.csv, ${SERVE_KEY_FILE} and ${users.map((u) => `${u.user}.kubeconfig`).join(', ')}`);
  log(`start: nats-server -c ${join(out, 'nats-server.conf')}; orchsim apiserver --bus-kubeconfig ${join(out, 'apiserver.kubeconfig')} --token-auth-file ${join(out, 'tokens.csv')} `
    + `--service-account-issuer ${SERVE_ISSUER} --service-account-signing-key-file ${join(out, SERVE_KEY_FILE)} --authorization-mode RBAC,Node; `
    + `then each component with --orchconfig ${join(out, '<component>.kubeconfig')} (the controller manager with --use-service-account-credentials)`);
  return 0;
}
