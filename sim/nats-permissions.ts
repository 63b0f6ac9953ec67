// Who may do what on the bus in multi-process mode: one NATS user per component and the subjects
// its permissions allow, written as nats-server's configuration (`authorization { users }`). The
// API server alone serves requests and publishes watch events; every other component may only
// send requests (orch.api.request, orch.api.changes), hear the replies on an inbox of its own, and
// subscribe to the watch subjects it follows (actors/apiserver/watch/subjects.ts); a node agent
// also hears the scrapes of its own summary and answers them. Secrets'
// subjects carry their metadata only, and only the controller manager, whose garbage collector and
// namespace controller follow it, may hear them.
import { CHANGES_SUBJECT, REQUEST_SUBJECT } from '../actors/apiserver/bus-endpoint.ts';
import { PROGRESS_SUBJECT, token, watchSubject } from '../actors/apiserver/watch/subjects.ts';
import { SCHEDULER_WATCHES } from '../actors/scheduler/scheduler.ts';
import { PODS } from '../actors/api/model/core.ts';
import { summarySubject } from '../actors/nodeagent/summary.ts';

export type Component = { kind: 'apiserver' | 'scheduler' | 'controller-manager' } | { kind: 'node'; name: string };

/** A component's NATS user: `apiserver`, `scheduler`, `controller-manager`, `node-<name>`. */
export const natsUser = (c: Component): string => (c.kind === 'node' ? `node-${c.name}` : c.kind);

/**
 * The first token of a user's reply subjects: `_INBOX_<user>`, escaped as a subject token, so a
 * node named `n1.example` gets `_INBOX_node-n1%2Eexample` and no user's inbox holds another's.
 */
export const inboxPrefix = (user: string): string => `_INBOX_${token(user)}`;

export interface SubjectRules {
  allow: string[];
  deny?: string[];
}

export interface Permissions {
  publish: SubjectRules;
  subscribe: SubjectRules;
  /** May answer the requests it receives (NATS `allow_responses`): node agents answering the metrics server's scrapes. */
  allowResponses?: boolean;
}

const ALL = '>';
const WATCH_ALL = 'orch.w.>';
/** Every object subject of every kind (`orch.w.<group>.<resource>.o.<namespace>.<name>`). */
const OBJECTS_ALL = 'orch.w.*.*.o.*.*';
/** A Secret's events: metadata only on the bus, yet none of a node's or the scheduler's business. */
const SECRETS_ALL = 'orch.w.core.secrets.>';
const API_ALL = 'orch.api.>';

/** The watch subjects a component follows (its informers'), beside the progress subject. */
function watches(c: Exclude<Component, { kind: 'apiserver' }>): string[] {
  // Its own pods only: the informer of spec.nodeName=<name> (actors/nodeagent/nodeagent.ts); and its summary's scrapes.
  if (c.kind === 'node') return [watchSubject(PODS, { nodeName: c.name }), summarySubject(c.name)];
  if (c.kind === 'scheduler') return SCHEDULER_WATCHES.map((type) => watchSubject(type, {}));
  // Its informers follow most kinds in every namespace (the garbage collector every kind it may
  // list and watch, Secrets' metadata included), by object, never by node.
  return [OBJECTS_ALL];
}

export function permissionsOf(c: Component): Permissions {
  if (c.kind === 'apiserver') return { publish: { allow: [ALL] }, subscribe: { allow: [ALL] } };
  return {
    publish: { allow: [REQUEST_SUBJECT, CHANGES_SUBJECT], deny: [WATCH_ALL] },
    subscribe: { allow: [...watches(c), PROGRESS_SUBJECT, `${inboxPrefix(natsUser(c))}.>`], deny: c.kind === 'controller-manager' ? [API_ALL] : [API_ALL, SECRETS_ALL] },
    ...(c.kind === 'node' ? { allowResponses: true } : {}),
  };
}

export interface NatsUser {
  user: string;
  password: string;
  permissions: Permissions;
}

/** nats-server's configuration: its users; `listen` (host:port) where the server should listen, if one address. */
export function natsServerConfig(users: readonly NatsUser[], listen?: string): string {
  const q = (s: string) => JSON.stringify(s);
  const list = (xs: readonly string[]) => `[${xs.map(q).join(', ')}]`;
  const rules = (r: SubjectRules) => `{ allow: ${list(r.allow)}${r.deny ? `, deny: ${list(r.deny)}` : ''} }`;
  const entry = (u: NatsUser) => [
    `    {`,
    `      user: ${q(u.user)}, password: ${q(u.password)}`,
    `      permissions: {`,
    `        publish: ${rules(u.permissions.publish)}`,
    `        subscribe: ${rules(u.permissions.subscribe)}`,
    ...(u.permissions.allowResponses ? ['        allow_responses: true'] : []),
    `      }`,
    `    }`,
  ].join('\n');
  return [
    '# Written by orchsim credentials: the NATS users of one cluster\'s components and what each may',
    '# publish and subscribe to. Start the server with it: nats-server -c nats-server.conf',
    ...(listen ? [`listen: ${q(listen)}`] : []),
    'authorization {',
    '  users = [',
    users.map(entry).join('\n'),
    '  ]',
    '}',
    '',
  ].join('\n');
}
