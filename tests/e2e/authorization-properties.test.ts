// Authorization under random policies: a seeded generator writes Roles, ClusterRoles and their
// bindings (random verbs, groups, resources and subresources, wildcards, resourceNames,
// non-resource URLs, namespaces, users, groups and service accounts as subjects, dangling role
// references), then asks random requests, half of them near misses of a granted rule (another
// verb, name, namespace or subresource). For each, four answers must agree: the reference's
// decision (authorization-reference.ts), the real request's over HTTPS (403 or not), a
// SubjectAccessReview's, and whether the requester's own SelfSubjectRulesReview lists a rule
// that covers the request. AUTHZ_SEED=<n> replays a run; the seed is printed first.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Random } from '../../actors/api/env.ts';
import { seededRandom } from '../../sim/random.ts';
import { startTestServer } from '../helpers/api-server.ts';
import { accessReview, describe, requestFor, SUBJECT_ACCESS_REVIEWS } from '../helpers/attribute-requests.ts';
import { isNonResource, ReferenceRbac, ruleAllows, type Attributes, type RbacObject, type ResourceAttributes, type Rule, type Subject, type User } from '../helpers/authorization-reference.ts';
import { IdentityClient, inPool, type Answer } from '../helpers/identity-client.ts';
import { bootstrapPolicy, rbacCollection } from '../helpers/rbac-objects.ts';

const SEED = Number(process.env.AUTHZ_SEED ?? 20_240_611);
const ROUNDS = 8;
const CASES_PER_ROUND = 50;
const RBAC = 'rbac.authorization.k8s.io';
const ADMIN_TOKEN = 'properties-admin';
const NAMESPACES = ['n0', 'n1', 'n2'];
const NAMES = ['a', 'b', 'c', 'd'];
const GROUPS = ['g0', 'g1', 'g2'];

const pick = <T>(r: Random, xs: readonly T[]): T => xs[Math.floor(r.next() * xs.length)]!;
const chance = (r: Random, p: number) => r.next() < p;
const some = <T>(r: Random, xs: readonly T[], most: number): T[] => {
  const n = 1 + Math.floor(r.next() * most);
  return [...new Set(Array.from({ length: n }, () => pick(r, xs)))];
};

/** The kinds asked about: group, resource, its subresources, whether cluster-scoped. */
const KINDS = [
  { group: '', resource: 'pods', subresources: ['status'] },
  { group: '', resource: 'configmaps', subresources: [] },
  { group: '', resource: 'secrets', subresources: [] },
  { group: '', resource: 'services', subresources: ['status'] },
  { group: 'apps', resource: 'deployments', subresources: ['status'] },
  { group: 'coordination.k8s.io', resource: 'leases', subresources: [] },
  { group: '', resource: 'nodes', subresources: ['status'], cluster: true },
  { group: '', resource: 'namespaces', subresources: ['status'], cluster: true },
];
const RULE_GROUPS = [[''], ['apps'], ['coordination.k8s.io'], ['*'], ['', 'apps']];
const RULE_RESOURCES = ['pods', 'configmaps', 'secrets', 'services', 'deployments', 'leases', 'nodes', 'namespaces', 'pods/status', 'deployments/status',
  'nodes/status', '*', '*/status'];
const VERBS = ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete', 'deletecollection'];
const PATHS = ['/metrics', '/healthz', '/healthz/ping', '/logs/a', '/version', '/nothing'];
const URL_PATTERNS = ['/metrics', '/healthz/*', '/logs/*', '*', '/version', '/nothing'];

/** The identities, drawn once per run: users in random groups, and service accounts. */
function identities(r: Random): { token: string; user: User }[] {
  const users = ['u0', 'u1', 'u2', 'u3'].map((name) => ({ token: `${name}-token`, user: { username: name, groups: [...some(r, GROUPS, 2), 'system:authenticated'] } }));
  const accounts = [['n0', 'sa0'], ['n1', 'sa0'], ['n1', 'sa1']].map(([ns, name]) => ({ token: `${ns}-${name}-token`,
    user: { username: `system:serviceaccount:${ns}:${name}`, groups: ['system:serviceaccounts', `system:serviceaccounts:${ns}`, 'system:authenticated'] } }));
  return [...users, ...accounts];
}

/** A resource rule; its groups mostly those of its resources, as people write them, sometimes a wildcard or a mistake. */
function resourceRule(r: Random): Rule {
  const verbs = chance(r, 0.1) ? ['*'] : some(r, VERBS, 3);
  const resources = some(r, RULE_RESOURCES, 2);
  const own = KINDS.find((k) => k.resource === resources[0]!.split('/')[0])?.group;
  const apiGroups = own !== undefined && chance(r, 0.75) ? [own] : pick(r, RULE_GROUPS);
  return { verbs, apiGroups, resources, ...(chance(r, 0.3) ? { resourceNames: some(r, NAMES, 2) } : {}) };
}

function subject(r: Random, ids: { user: User }[], clusterWide: boolean): Subject {
  const k = r.next();
  if (k < 0.35) return { kind: 'User', apiGroup: RBAC, name: pick(r, ids).user.username };
  if (k < 0.7) return { kind: 'Group', apiGroup: RBAC, name: pick(r, [...GROUPS, 'system:serviceaccounts', 'system:serviceaccounts:n1', 'system:authenticated']) };
  // A RoleBinding's service account may leave its namespace out (the binding's); a ClusterRoleBinding's may not.
  const namespace = clusterWide || chance(r, 0.5) ? pick(r, NAMESPACES) : undefined;
  return { kind: 'ServiceAccount', name: pick(r, ['sa0', 'sa1']), ...(namespace ? { namespace } : {}) };
}

/** One round's policy: every object named after the round, so that the next round's replace it cleanly. */
function policy(r: Random, round: number, ids: { user: User }[]): RbacObject[] {
  const p = `r${round}`;
  const out: RbacObject[] = [];
  const roles: [string, string][] = [];
  const clusterRoles: string[] = [];
  for (let i = 0, n = 1 + Math.floor(r.next() * 4); i < n; i++) {
    const namespace = pick(r, NAMESPACES);
    roles.push([namespace, `${p}-role-${i}`]);
    out.push({ apiVersion: `${RBAC}/v1`, kind: 'Role', metadata: { name: `${p}-role-${i}`, namespace }, rules: Array.from({ length: 1 + Math.floor(r.next() * 3) }, () => resourceRule(r)) });
  }
  for (let i = 0, n = 1 + Math.floor(r.next() * 4); i < n; i++) {
    clusterRoles.push(`${p}-cluster-role-${i}`);
    const rules = Array.from({ length: 1 + Math.floor(r.next() * 3) }, () => (chance(r, 0.2)
      ? { verbs: chance(r, 0.5) ? ['get'] : pick(r, [['*'], ['get', 'post']]), nonResourceURLs: some(r, URL_PATTERNS, 2) } : resourceRule(r)));
    out.push({ apiVersion: `${RBAC}/v1`, kind: 'ClusterRole', metadata: { name: `${p}-cluster-role-${i}` }, rules });
  }
  const ref = (namespace: string | undefined) => {
    const own = roles.filter(([ns]) => ns === namespace);
    if (chance(r, 0.08)) return { apiGroup: RBAC, kind: namespace && chance(r, 0.5) ? 'Role' : 'ClusterRole', name: `${p}-missing` };
    if (namespace && own.length && chance(r, 0.5)) return { apiGroup: RBAC, kind: 'Role', name: pick(r, own)[1] };
    return { apiGroup: RBAC, kind: 'ClusterRole', name: pick(r, clusterRoles) };
  };
  for (let i = 0, n = 2 + Math.floor(r.next() * 5); i < n; i++) {
    const namespace = pick(r, NAMESPACES);
    out.push({ apiVersion: `${RBAC}/v1`, kind: 'RoleBinding', metadata: { name: `${p}-binding-${i}`, namespace }, roleRef: ref(namespace),
      subjects: Array.from({ length: 1 + Math.floor(r.next() * 3) }, () => subject(r, ids, false)) });
  }
  for (let i = 0, n = Math.floor(r.next() * 3); i < n; i++)
    out.push({ apiVersion: `${RBAC}/v1`, kind: 'ClusterRoleBinding', metadata: { name: `${p}-cluster-binding-${i}` }, roleRef: ref(undefined),
      subjects: Array.from({ length: 1 + Math.floor(r.next() * 3) }, () => subject(r, ids, true)) });
  return out;
}

/** A request of `user` drawn at random, or (mostly) a near miss of a rule `policy` grants it. */
function request(r: Random, user: User, policy: ReferenceRbac): Attributes {
  if (chance(r, 0.1)) return { verb: chance(r, 0.85) ? 'get' : 'post', path: pick(r, PATHS) };
  const grantedIn = (ns: string | undefined) => policy.rulesOf(user, ns).filter((x) => x.resources?.length);
  const useful = [...NAMESPACES, undefined].filter((ns) => grantedIn(ns).length);
  const where = useful.length && chance(r, 0.7) ? pick(r, useful) : chance(r, 0.2) ? undefined : pick(r, NAMESPACES);
  const granted = grantedIn(where);
  const kind = pick(r, KINDS);
  const a: ResourceAttributes = { verb: pick(r, VERBS), group: kind.group, resource: kind.resource, ...(where ? { namespace: where } : {}) };
  if (granted.length && chance(r, 0.75)) {
    const rule = pick(r, granted);
    const [resource, sub] = pick(r, rule.resources!).split('/');
    const k = KINDS.find((x) => x.resource === resource) ?? kind;
    Object.assign(a, { group: k.group, resource: k.resource });
    const verbs = rule.verbs.filter((v) => VERBS.includes(v));
    a.verb = verbs.length && chance(r, 0.8) ? pick(r, verbs) : pick(r, VERBS);
    if (sub !== undefined && k.subresources.length && chance(r, 0.8)) a.subresource = pick(r, k.subresources);
    if (rule.resourceNames?.length) a.name = chance(r, 0.7) ? pick(r, rule.resourceNames) : pick(r, NAMES);
  } else if (chance(r, 0.3) && kind.subresources.length) a.subresource = pick(r, kind.subresources);
  const k = KINDS.find((x) => x.resource === a.resource)!;
  // The shape a request can have: a subresource or get, update, patch, delete name an object; the others do not.
  if (a.subresource && !['get', 'update', 'patch'].includes(a.verb)) a.verb = pick(r, ['get', 'update', 'patch']);
  const named = a.subresource !== undefined || ['get', 'update', 'patch', 'delete'].includes(a.verb);
  const listing = a.verb === 'list' || a.verb === 'watch';
  if (named) a.name ??= pick(r, NAMES);
  else {
    if (listing && (a.name !== undefined ? chance(r, 0.7) : chance(r, 0.2))) a.fieldSelector = `metadata.name=${a.name ?? pick(r, NAMES)}`;
    delete a.name;
  }
  if (k.cluster) delete a.namespace;
  else if (a.namespace === undefined ? !(listing && !named) || chance(r, 0.5) : chance(r, 0.1)) a.namespace = pick(r, NAMESPACES);
  return a;
}

const bodyOf = (a: ResourceAttributes) => ({ metadata: { name: a.name ?? 'properties-new' } });

test(`random policies: the real answer, SubjectAccessReview and SelfSubjectRulesReview agree with the reference (seed ${SEED})`, async () => {
  console.log(`seed ${SEED} (AUTHZ_SEED=${SEED} replays it)`);
  const random = seededRandom(SEED);
  const ids = identities(random.fork('identities'));
  const dir = mkdtempSync(join(tmpdir(), 'orchsim-authz-properties-'));
  const tokens = join(dir, 'tokens.csv');
  writeFileSync(tokens, [`${ADMIN_TOKEN},properties-admin,uid-admin,"system:masters"`,
    ...ids.map((i) => `${i.token},${i.user.username},uid-${i.token},"${i.user.groups.filter((g) => g !== 'system:authenticated').join(',')}"`)].join('\n'));
  const s = await startTestServer({ authorizationMode: ['Node', 'RBAC'], tokenAuthFile: tokens });
  const admin = new IdentityClient(s.url, s.ca, { token: ADMIN_TOKEN }, 8);
  const clients = new Map(ids.map((i) => [i.user.username, new IdentityClient(s.url, s.ca, { token: i.token })]));
  try {
    for (const ns of NAMESPACES) await admin.must({ method: 'POST', path: '/api/v1/namespaces', body: { metadata: { name: ns } } });
    const bootstrap = await bootstrapPolicy(admin);
    const failures: string[] = [];
    let allowed = 0;
    let previous: RbacObject[] = [];
    const policies: RbacObject[][] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const r = random.fork(`round-${round}`);
      for (const o of previous) await admin.must({ method: 'DELETE', path: `${rbacCollection(o)}/${o.metadata.name}` });
      const objects = policy(r, round, ids);
      for (const o of objects) await admin.must({ method: 'POST', path: rbacCollection(o), body: o });
      previous = objects;
      policies.push(objects);
      const reference = new ReferenceRbac([...bootstrap, ...objects]);
      const rulesReviews = new Map<string, Promise<Answer>>();
      const rulesOf = (user: User, namespace: string) => {
        const key = `${user.username} ${namespace}`;
        if (!rulesReviews.has(key))
          rulesReviews.set(key, clients.get(user.username)!.must({ method: 'POST', path: '/apis/authorization.k8s.io/v1/selfsubjectrulesreviews',
            body: { apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectRulesReview', spec: { namespace } } }, [201]));
        return rulesReviews.get(key)!;
      };
      // Near misses of this round's rules, not of the bootstrap's (which name kinds not asked about here).
      const generated = new ReferenceRbac(objects);
      const cases = Array.from({ length: CASES_PER_ROUND }, () => {
        const user = pick(r, ids).user;
        return { user, attributes: request(r, user, generated) };
      });
      await inPool(cases, 8, async ({ user, attributes: a }) => {
        const expected = reference.allows(user, a);
        if (expected) allowed++;
        const real = await clients.get(user.username)!.send(isNonResource(a) ? { method: a.verb.toUpperCase(), path: a.path } : requestFor(a, bodyOf(a)));
        const sar = await admin.must({ method: 'POST', path: SUBJECT_ACCESS_REVIEWS, body: accessReview(user, a) }, [201]);
        const listed = (await rulesOf(user, isNonResource(a) ? '' : a.namespace ?? '')).json.status;
        const covered = ((isNonResource(a) ? listed.nonResourceRules : listed.resourceRules) as Rule[]).some((rule) => ruleAllows(rule, a));
        const answers = { real: real.status !== 403, review: sar.json.status.allowed === true, rules: covered };
        if (real.status === 401 || Object.values(answers).some((x) => x !== expected))
          failures.push(`round ${round}: ${user.username} ${describe(a)}: reference ${expected ? 'allows' : 'forbids'}; real ${real.status} ${real.json?.message ?? ''}; `
            + `review ${answers.review} ${sar.json.status.reason ?? ''}; rules review ${covered ? 'covers' : 'does not cover'} it`);
      });
    }
    const total = ROUNDS * CASES_PER_ROUND;
    const first = Number(/^round (\d+)/.exec(failures[0] ?? '')?.[1]);
    assert.is(failures.length, 0, `seed ${SEED}: ${failures.length} of ${total} cases disagree:\n${failures.slice(0, 10).join('\n')}\n`
      + `round ${first}'s policy: ${JSON.stringify(policies[first])}`);
    console.log(`${total} cases, ${allowed} allowed`);
    // Random policies that allowed (or forbade) nearly everything would prove little.
    assert.ok(allowed > total / 10 && allowed < (total * 9) / 10, `${allowed} of ${total} cases allowed`);
  } finally {
    for (const c of clients.values()) c.close();
    admin.close();
    await s.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
