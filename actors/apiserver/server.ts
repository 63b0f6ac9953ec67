// The API server actor: one entry point, `handle`, from a wire request to a response. HTTPS
// (https.ts) and the bus (bus-endpoint.ts) call it the same way, so every request passes the same
// filters, in the real server's order: the shutdown filters (lifecycle.ts), the request deadline
// (deadline.ts), authentication, the in-flight limit (inflight.ts: priority and fairness in
// flowcontrol/, or the max-in-flight pools), then routing, which reads the resource table,
// authorization and the handlers. Every answer is counted in /metrics.
import type { Clock, Random } from '../api/env.ts';
import { StatusError, internal, methodNotAllowed, type Status } from '../api/status.ts';
import type { KObject } from '../api/types.ts';
import { AdmissionChain } from './admission/chain.ts';
import { makePlugin } from './admission/plugins.ts';
import { PolicyObjects } from './admission/policy-objects.ts';
import { SYSTEM_PRIORITY_CLASSES } from './registry/kinds/priority-class.ts';
import { equivalenceIn } from './admission/webhooks/matching.ts';
import { WebhookSource } from './admission/webhooks/source.ts';
import { SYSTEM_NAMESPACES } from '../api/namespaces.ts';
import { authenticator, loadTokenFile, type Authenticator } from './auth/authenticator.ts';
import { loadPolicyFile } from './auth/abac.ts';
import { ANONYMOUS, authorizerFor, decided, type AuthorizationAttributes, type Authorizer, type Decision, type UserInfo } from './auth/authorizer.ts';
import { bootstrapPolicy } from './auth/bootstrap-policy.ts';
import { forbiddenFor } from './auth/forbidden.ts';
import { FrontProxy } from './auth/front-proxy.ts';
import { impersonate, impersonatedAtOnce, impersonates, isImpersonationHeader } from './auth/impersonation.ts';
import { NodeAuthorizer } from './auth/node-authorizer.ts';
import { NodeGraph } from './auth/node-graph.ts';
import { RbacPolicy } from './auth/rbac.ts';
import { rbacEscalationPlugin } from './auth/rbac-escalation.ts';
import { webhookAuthorizer } from './auth/webhook-authorizer.ts';
import { handleDelete, handleDeleteCollection } from './handlers/delete.ts';
import { outputFor, type EncodeContext } from './handlers/encode.ts';
import { handlePatch } from './handlers/patch.ts';
import { handleBinding } from './handlers/binding.ts';
import { handleEviction } from './handlers/eviction.ts';
import { handleGet, handleList } from './handlers/read.ts';
import { statusResponse, type ApiResponse } from './handlers/response.ts';
import { handleReview } from './handlers/reviews.ts';
import { handleScale } from './handlers/scale.ts';
import { handleTokenRequest } from './handlers/token-request.ts';
import { handleTokenReview } from './handlers/token-review.ts';
import { serviceAccountTokens, type ServiceAccountTokens } from './auth/service-accounts.ts';
import { handleCreate, handleUpdate } from './handlers/write.ts';
import { negotiate } from './negotiation.ts';
import { admissionPluginNames, type ApiServerOptions } from './options.ts';
import { Catalogue } from './catalogue.ts';
import { serveAggregated, type AggregatedApi } from './aggregated.ts';
import { CustomResourceDefinitions } from './custom-resources/definitions.ts';
import { kubernetesService, serviceClusterIPRanges } from './kubernetes-service.ts';
import { collectionKey, objectKey } from './registry/keys.ts';
import { kindOf } from './registry/kinds/index.ts';
import { Registry } from './registry/registry.ts';
import { pathNotFound, type ApiRequest, type Arrival, type ResourceRequest } from './request.ts';
import { deadlineMs, withDeadline } from './deadline.ts';
import { InflightLimiter, tooManyInflight, UNCOUNTED, type Admission } from './inflight.ts';
import { ensureBootstrapConfiguration, flowControlFor, keepBootstrapConfiguration, queueWaitLimitMs, requestDigest, type FlowControl } from './flowcontrol/index.ts';
import { ServerLifecycle, type ShutdownListener } from './lifecycle.ts';
import { ApiServerMetrics } from './metrics.ts';
import { requestInfo, type RequestInfo } from './request-info.ts';
import { healthChecks, nonResourceAnswer, type NonResourceDeps } from './non-resource.ts';
import { trackWatch } from './watch-tracking.ts';
import { MemoryStore } from './storage/memory.ts';
import { handleWatch, type WatchDeps } from './handlers/watch.ts';
import { Fanout } from './watch/fanout.ts';
import { EventExpiry } from './event-ttl.ts';
import { changesAfter, serveOnBus, type ChangesRequest } from './bus-endpoint.ts';
import { WatchHub } from './watch/hub.ts';
import type { Bus } from '../../transport/bus.ts';
import { MemoryBus } from '../../transport/memory-bus.ts';
import type { Store } from './storage/store.ts';
import { lookupKind, lookupResource, type ResourceType } from '../api/resources.ts';
import { requiredFieldValue } from '../api/selectors.ts';
import { ActorSystem } from '../system/actor-system.ts';

/** A body not read yet (arrival looks at the request line and headers only). */
const EMPTY = new Uint8Array();

export interface ApiServerEnv {
  clock: Clock;
  random: Random;
  /** Defaults to a fresh in-memory store. */
  store?: Store;
  /** Where watch events travel; defaults to an in-process bus on the same clock. */
  bus?: Bus;
  /** The process's actor system: the server's lifecycle and terminating objects are recorded there (a system of its own when absent). */
  system?: ActorSystem;
  /** The bearer tokens of the components running beside it in this process (credentials.ts). */
  componentTokens?: { get(token: string): UserInfo | undefined };
}


/**
 * Picks the representation a write answers in before anything is written, as real handlers do
 * (NegotiateOutputMediaType first): a 406, or an unreadable `pretty`, must not follow a write.
 * Evictions, bindings and deletes of kinds that do not return the deleted object answer with a Status.
 */
function negotiateWrite(r: ResourceRequest, ctx: EncodeContext): void {
  if (r.subresource === 'scale') outputFor({ ...ctx, read: false }, 'Scale');
  else if (r.subresource === 'binding' || r.subresource === 'eviction' || (r.verb === 'delete' && !kindOf(r.type).returnsDeletedObject))
    negotiate(ctx.accept, { table: false, protobuf: true, pretty: ctx.query.bool('pretty') });
  else outputFor(ctx, r.verb === 'deletecollection' ? `${r.type.kind}List` : r.type.kind);
}

export class ApiServer {
  /** The types served: the built-in table and those CustomResourceDefinitions add. */
  readonly catalogue = new Catalogue();
  readonly registry: Registry;
  readonly store: Store;
  readonly bus: Bus;
  readonly hub: WatchHub;
  readonly #fanout: Fanout;
  readonly #watch: WatchDeps;
  #stopBus: (() => void) | undefined;
  readonly #authorizer: Authorizer;
  readonly #authenticator: Authenticator;
  readonly #frontProxy: FrontProxy | undefined;
  /** The RBAC objects, read from the store, when the RBAC mode is on. */
  readonly rbac: RbacPolicy | undefined;
  readonly #nodeGraph: NodeGraph | undefined;
  /** The admission webhook configurations, read from the store. */
  readonly webhooks: WebhookSource;
  readonly #serviceAccounts: ServiceAccountTokens | undefined;
  #compactionTimer: unknown;
  #revisionAtLastTick: number;
  /** Requests handled since the start (HTTPS and bus alike). */
  requests = 0;
  readonly inflight: InflightLimiter;
  /** Priority and fairness, when --enable-priority-and-fairness (else the max-in-flight pools). */
  readonly flowControl: FlowControl | undefined;
  #stopProducer: (() => void) | undefined;
  readonly metrics: ApiServerMetrics;
  readonly lifecycle: ServerLifecycle;
  #shutdown: Promise<void> | undefined;
  readonly #nonResourceDeps: NonResourceDeps;
  readonly #eventExpiry: EventExpiry;
  readonly #definitions: CustomResourceDefinitions;
  /** The PriorityClasses, quotas and limit ranges admission reads on every pod create. */
  readonly #policy: PolicyObjects;
  /** Group versions other components serve through this server (aggregated.ts). */
  readonly #aggregated: AggregatedApi[] = [];

  constructor(readonly options: ApiServerOptions, readonly env: ApiServerEnv) {
    this.store = env.store ?? new MemoryStore();
    const system = env.system ?? new ActorSystem(env.clock);
    this.#policy = new PolicyObjects(this.store, options.etcdPrefix);
    const prefix = options.etcdPrefix;
    this.webhooks = new WebhookSource(this.store, prefix);
    const namespaced = (group: string, resource: string) => ({ group, resource, scope: 'Namespaced' as const });
    const read = { get: (group: string, resource: string, ns: string, name: string) => this.store.get(objectKey(prefix, namespaced(group, resource), ns, name)),
      list: async (group: string, resource: string, ns: string) => (await this.store.list(collectionKey(prefix, namespaced(group, resource), ns))).items };
    const pluginOpts = { defaultNotReadyTolerationSeconds: options.defaultNotReadyTolerationSeconds,
      defaultUnreachableTolerationSeconds: options.defaultUnreachableTolerationSeconds,
      policy: { objects: this.#policy, store: this.store, keyPrefix: options.etcdPrefix, clock: env.clock },
      webhooks: { source: this.webhooks, call: { random: env.random.fork('admission-webhooks'), read }, equivalents: equivalenceIn(this.catalogue) },
      clock: env.clock, random: env.random.fork('admission') };
    const modes = options.authorizationMode;
    this.rbac = modes.includes('RBAC') ? new RbacPolicy(this.store, options.etcdPrefix) : undefined;
    this.#nodeGraph = modes.includes('Node') ? new NodeGraph(this.store, options.etcdPrefix) : undefined;
    this.#authorizer = authorizerFor(modes, { ...(this.rbac ? { rbac: this.rbac } : {}), ...(this.#nodeGraph ? { node: new NodeAuthorizer(this.#nodeGraph) } : {}),
      ...(modes.includes('ABAC') ? { abac: loadPolicyFile(options.authorizationPolicyFile!) } : {}),
      ...(modes.includes('Webhook') ? { webhook: webhookAuthorizer(options, env.clock) } : {}) });
    const plugins = admissionPluginNames(options).map((n) => makePlugin(n, pluginOpts)!);
    // Part of RBAC's storage in the real server, not a plugin one can turn off: last of the mutating phase.
    if (this.rbac) plugins.push(rbacEscalationPlugin(this.rbac, this.#authorizer));
    const namespaces = lookupResource('', 'v1', 'namespaces')!;
    const serviceAccounts = lookupResource('', 'v1', 'serviceaccounts')!;
    this.registry = new Registry({ store: this.store, clock: env.clock, random: env.random.fork('apiserver'),
      admission: new AdmissionChain(plugins), keyPrefix: options.etcdPrefix, system,
      allocation: { serviceClusterIPRange: serviceClusterIPRanges(options), serviceNodePortRange: options.serviceNodePortRange, random: env.random.fork('service-allocation') },
      lookup: { getNamespace: (name) => this.store.get(objectKey(options.etcdPrefix, namespaces, undefined, name)),
        getServiceAccount: (ns, name) => this.store.get(objectKey(options.etcdPrefix, serviceAccounts, ns, name)) } });
    const tokens = new Map([...(options.tokens ?? []), ...(options.tokenAuthFile ? loadTokenFile(options.tokenAuthFile) : [])]);
    this.#serviceAccounts = serviceAccountTokens(options, env.clock, env.random.fork('service-account-tokens'));
    const components = env.componentTokens;
    this.#frontProxy = options.requestheaderClientCaFile === undefined ? undefined : new FrontProxy({ allowedNames: options.requestheaderAllowedNames ?? [],
      usernameHeaders: options.requestheaderUsernameHeaders ?? [], groupHeaders: options.requestheaderGroupHeaders ?? [], extraHeadersPrefixes: options.requestheaderExtraHeadersPrefix ?? [] });
    this.#authenticator = authenticator(components ? { get: (t) => tokens.get(t) ?? components.get(t) } : tokens, options.anonymousAuth,
      this.#serviceAccounts && { verifier: this.#serviceAccounts.verifier, clock: env.clock, read: (type, ns, name) => this.store.get(this.registry.key(type, ns, name)) },
      this.#frontProxy);
    this.#revisionAtLastTick = this.store.revision;
    this.bus = env.bus ?? new MemoryBus({ clock: env.clock });
    const local = new MemoryBus({ clock: env.clock });
    this.hub = new WatchHub(this.bus, local);
    this.#fanout = new Fanout(this.store, this.bus, options.etcdPrefix, local, this.catalogue);
    this.#eventExpiry = new EventExpiry(this.store, env.clock, options.etcdPrefix, options.eventTtlMs);
    this.#definitions = new CustomResourceDefinitions(this.registry, this.catalogue, system);
    this.#watch = { registry: this.registry, hub: this.hub, random: env.random.fork('watch-lifetimes'),
      minRequestTimeoutMs: options.minRequestTimeoutSeconds * 1000, bookmarkIntervalMs: options.watchBookmarkIntervalMs,
      watcherCapacity: options.watcherCapacity };
    this.inflight = new InflightLimiter(options);
    this.metrics = new ApiServerMetrics(this.inflight);
    this.flowControl = options.enablePriorityAndFairness ? flowControlFor(this.registry, env.clock, this.inflight.serverConcurrencyLimit, this.metrics,
      (kind, delta) => (delta > 0 ? this.inflight.started(kind) : this.inflight.release(kind))) : undefined;
    if (this.flowControl) this.metrics.observeFlowControl(this.flowControl);
    this.lifecycle = new ServerLifecycle(options, system);
    this.#nonResourceDeps = { metrics: this.metrics.registry, health: healthChecks(() => this.lifecycle.shutdownCheck()),
      issuerDiscovery: this.#serviceAccounts?.discovery, unservedSubresources: new Set(this.#serviceAccounts ? [] : ['serviceaccounts/token']),
      catalogue: this.catalogue, aggregated: this.#aggregated };
  }

  /**
   * Serves `api`'s group version through this server from now on, as an APIService does (a
   * metrics server's metrics.k8s.io): listed in discovery, its requests authorized here.
   */
  aggregate(api: AggregatedApi): void {
    if (this.#aggregated.some((a) => a.group === api.group && a.version === api.version)) throw new Error(`${api.group}/${api.version} is served already`);
    this.#aggregated.push(api);
  }

  /**
   * Takes back what the stored Services hold of the address and port ranges, creates the system
   * namespaces, the PriorityClasses and the `kubernetes` Service (with RBAC the bootstrap roles and
   * bindings, with priority and fairness its bootstrap configuration, kept from then on), reads what
   * authorization, admission and priority and fairness need, and starts compaction.
   */
  async start(): Promise<void> {
    await this.registry.restoreAllocations();
    const ns = lookupResource('', 'v1', 'namespaces')!;
    const pc = lookupResource('scheduling.k8s.io', 'v1', 'priorityclasses')!;
    const missing: [ResourceType, KObject][] = SYSTEM_NAMESPACES.map((name) => [ns, { metadata: { name } } as KObject]);
    missing.push(...SYSTEM_PRIORITY_CLASSES.map((c): [ResourceType, KObject] => [pc, structuredClone(c)]));
    missing.push(...kubernetesService(this.options));
    if (this.rbac) missing.push(...bootstrapPolicy().map((o): [ResourceType, KObject] => [lookupKind(o.apiVersion!, o.kind!)!, o]));
    for (const [type, obj] of missing) {
      const exists = await this.store.get(this.registry.key(type, obj.metadata.namespace, obj.metadata.name!));
      // Not through admission: a plugin such as AlwaysDeny must not stop the server from starting.
      if (!exists) await this.registry.create(type, obj.metadata.namespace, obj, { dryRun: false, fieldManager: 'orch-apiserver', skipAdmission: true });
    }
    if (this.flowControl) {
      await ensureBootstrapConfiguration(this.registry);
      await this.flowControl.start();
      this.#stopProducer = keepBootstrapConfiguration(this.registry, this.env.clock);
    }
    await this.rbac?.load();
    await this.#nodeGraph?.load();
    await this.#definitions.start();
    await this.#policy.load();
    await this.webhooks.load();
    this.#scheduleCompaction();
    this.#stopBus = serveOnBus(this.bus, (req) => this.handle(req),
      (q, limit) => changesAfter(this.store, this.#fanout.chains, this.options.etcdPrefix, q, this.catalogue, limit), (q) => this.#refuseChanges(q));
    this.lifecycle.started();
  }

  /**
   * The graceful termination (lifecycle.ts): /readyz fails at once, requests are served through
   * --shutdown-delay-duration, then new ones are turned away while those in flight finish; then
   * watches end, `listener` closes, and the server stops.
   */
  shutdown(listener?: ShutdownListener): Promise<void> {
    this.#shutdown ??= this.lifecycle.shutdown(listener).then(() => this.stop());
    return this.#shutdown;
  }

  /** Stops at once: no draining, the bus endpoint and compaction stopped. */
  stop(): void {
    this.lifecycle.halt();
    this.#stopBus?.();
    this.#fanout.close();
    this.#eventExpiry.stop();
    this.#definitions.stop();
    this.#policy.close();
    this.#stopProducer?.();
    this.flowControl?.stop();
    if (this.#compactionTimer !== undefined) this.env.clock.clearTimeout(this.#compactionTimer);
    this.#compactionTimer = undefined;
  }

  /** Every interval, forget history up to the revision seen at the previous tick (as the real server does with etcd). */
  #scheduleCompaction(): void {
    const every = this.options.etcdCompactionIntervalMs;
    if (every <= 0) return;
    this.#compactionTimer = this.env.clock.setTimeout(() => {
      this.store.compact(this.#revisionAtLastTick);
      this.#revisionAtLastTick = this.store.revision;
      this.#scheduleCompaction();
    }, every);
  }

  async handle(req: ApiRequest): Promise<ApiResponse> {
    this.requests++;
    const started = this.env.clock.now();
    const info = req.arrival?.info ?? requestInfo(req, this.catalogue);
    let r: ApiResponse;
    try {
      r = await this.#filtered(req, info);
    } catch (e) {
      r = errorResponse(e);
    }
    if (r.stream && info.resource) return trackWatch(r, info.labels, info.resource.type, started, this);
    this.metrics.request(info.labels, r.status, this.env.clock.now() - started);
    return r;
  }

  /** Headers whose repeats are separate values, for the HTTPS layer to keep apart: impersonation's and a front proxy's. */
  keepsApart(header: string): boolean {
    return isImpersonationHeader(header) || (this.#frontProxy?.keepsApart(header) ?? false);
  }

  /**
   * A request arriving over HTTPS takes its place in the in-flight limits at once, before its
   * body is read or the event loop reaches its handler: counting from the handler alone, a
   * handler that finishes before the next request is read never looks busy, and requests pile up
   * in the event loop unrefused. Its caller (https.ts) releases the place once the answer is
   * written. Long-running requests take none; credentials that fail are refused later, by the
   * handler (meanwhile the request counts as anonymous). A request is placed as the user it
   * impersonates when that is allowed at once, as the real filters run impersonation first.
   */
  arrive(req: Omit<ApiRequest, 'body'>): Arrival {
    const info = requestInfo({ ...req, body: EMPTY }, this.catalogue);
    const atMs = this.env.clock.now();
    let user: UserInfo | undefined;
    try {
      user = this.#authenticator.authenticate(req);
    } catch { /* refused by the handler */ }
    if (info.longRunning) return { atMs, admission: UNCOUNTED, info, user, release: () => {} };
    const actingAs = user && impersonates(req.headers) ? impersonatedAtOnce(user, req.headers, this.#authorizer) : undefined;
    const admission = this.#admit(info, actingAs ?? user ?? ANONYMOUS);
    return { atMs, admission, info, user, ...(actingAs ? { actingAs } : {}), release: () => admission.release() };
  }

  /** A place for a request that is not long-running: priority and fairness decides, or the max-in-flight pools. */
  #admit(info: RequestInfo, user: UserInfo): Admission {
    const kind = info.readOnly ? 'readOnly' : 'mutating';
    if (!this.flowControl) return this.inflight.admit(kind, user.groups);
    let deadline = this.options.requestTimeoutMs;
    try {
      deadline = deadlineMs(info.query, deadline);
    } catch { /* a malformed timeout: the deadline filter answers 400 */ }
    return this.flowControl.admit(requestDigest(info, user), kind, queueWaitLimitMs(deadline));
  }

  /** The shutdown filters, then the deadline of requests that are not long-running. */
  async #filtered(req: ApiRequest, info: RequestInfo): Promise<ApiResponse> {
    const turnedAway = this.lifecycle.admit(info);
    if (turnedAway) return turnedAway;
    if (info.longRunning) return this.#served(req, info);
    try {
      // The deadline counts from arrival: the time waiting for the event loop is the client's too.
      const waited = req.arrival ? this.env.clock.now() - req.arrival.atMs : 0;
      const ms = Math.max(0, deadlineMs(info.query, this.options.requestTimeoutMs) - waited);
      return await withDeadline(this.#served(req, info), ms, this.env.clock, () => this.metrics.terminated(info.labels, 504));
    } finally {
      this.lifecycle.done();
    }
  }

  /** Authentication, then the in-flight limit (watches are not counted), then routing. */
  async #served(req: ApiRequest, info: RequestInfo): Promise<ApiResponse> {
    // Known on arrival over HTTPS; a failed authentication there is repeated here for its 401.
    let user = req.arrival?.user ?? this.#authenticator.authenticate(req);
    const confirming = this.#authenticator.confirm(user); // a service-account token's objects, read from the store
    if (confirming) await confirming;
    if (req.arrival?.actingAs) user = req.arrival.actingAs;
    else if (impersonates(req.headers)) user = await impersonate(user, req.headers, this.#authorizer);
    req.user = user;
    if (info.longRunning) return this.#route(req, info, user);
    // Over HTTPS the place was taken on arrival (and is given back when the answer is written).
    const admission = req.arrival?.admission ?? this.#admit(info, user);
    try {
      if (admission.state === 'queued') await admission.decided;
      if (admission.state === 'refused') {
        this.metrics.terminated(info.labels, 429);
        throw tooManyInflight(admission.retryAfterSeconds);
      }
      return withHeaders(await this.#route(req, info, user), admission.headers);
    } catch (e) {
      // Priority and fairness names the flow schema and level of refused and failed requests too.
      if (admission.headers) return withHeaders(errorResponse(e), admission.headers);
      throw e;
    } finally {
      if (!req.arrival) admission.release();
    }
  }

  async #route(req: ApiRequest, info: RequestInfo, user: UserInfo): Promise<ApiResponse> {
    if (!info.resource) {
      // Awaited only when a mode answered with a promise: a synchronous chain costs no microtask.
      const allowed = info.unserved ? this.#authorizeResource({ user, ...info.unserved }) : this.#authorizePath(info, user);
      if (allowed) await allowed;
    }
    const fixed = nonResourceAnswer(req, info.path.replace(/\/+$/, '') || '/', info.query, this.#nonResourceDeps);
    if (fixed) return fixed;
    const at = info.unserved;
    const api = at && this.#aggregated.find((a) => a.group === at.apiGroup && a.version === at.version);
    if (api && at) return serveAggregated(api, at, info.query, { list: async (type, ns) => (await this.store.list(collectionKey(this.options.etcdPrefix, type, ns))).items });
    if (!info.resource) throw info.parseError ?? pathNotFound(info.path);
    const r = info.resource;
    const allowed = this.#authorize(r, user);
    if (allowed) await allowed;
    const ctx: EncodeContext = { type: r.type, accept: req.headers.accept, query: info.query, read: r.verb === 'get' || r.verb === 'list' || r.verb === 'watch', nowMs: this.env.clock.now() };
    return this.#dispatch(req, r, ctx, user);
  }

  /**
   * A path that names no resource (health, version, discovery; a method no verb stands for) is
   * authorized by its path and method. Like #authorize: undefined when allowed at once, a promise
   * when a mode asked elsewhere; throws (or rejects) when not allowed.
   */
  #authorizePath(info: RequestInfo, user: UserInfo): void | Promise<void> {
    const verb = info.verb === 'head' ? 'get' : info.verb;
    return decided(this.#authorizer.authorize({ user, verb, path: info.path }), (d) => {
      if (d.decision === 'allow') return;
      refuseOnError(d);
      throw new StatusError(403, 'Forbidden', `forbidden: User "${user.username}" cannot ${verb} path "${info.path}"${d.reason ? `: ${d.reason}` : ''}`, {});
    });
  }

  #authorize(r: ResourceRequest, user: UserInfo): void | Promise<void> {
    const a: AuthorizationAttributes = { user, verb: r.verb, namespace: r.namespace, apiGroup: r.type.group, resource: r.type.resource,
      subresource: r.subresource, name: r.name, version: r.type.version };
    if (r.verb === 'list' || r.verb === 'watch') {
      const fieldSelector = r.query.string('fieldSelector');
      if (fieldSelector) a.fieldSelector = fieldSelector;
      // A list or watch of one object by name is about that name, as the real RequestInfoFactory
      // reads it: RBAC's resourceNames allow it (kubectl get cm --field-selector metadata.name=x).
      a.name ??= requiredFieldValue(fieldSelector, 'metadata.name') || undefined;
    }
    return this.#authorizeResource(a);
  }

  /** Undefined when allowed at once, a promise when a mode asked elsewhere; throws (or rejects) with the 403 or 500 when not allowed. */
  #authorizeResource(a: AuthorizationAttributes): void | Promise<void> {
    return decided(this.#authorizer.authorize(a), (d) => {
      if (d.decision === 'allow') return;
      refuseOnError(d);
      throw forbiddenFor(a, d.reason);
    });
  }

  /**
   * A watcher on the bus asking for a scope's backlog is authenticated and authorized as the watch
   * it is: its 401 or 403, or undefined.
   */
  #refuseChanges(q: ChangesRequest): Status | undefined | Promise<Status | undefined> {
    const type = this.catalogue.lookup(q.group, q.version, q.resource);
    if (!type) return undefined; // answered 400 with the changes
    let user: UserInfo;
    try {
      user = this.#authenticator.authenticate({ headers: { authorization: q.authorization } });
    } catch (e) {
      if (e instanceof StatusError) return e.status;
      throw e;
    }
    const authorized = (): Status | undefined | Promise<Status | undefined> => {
      const a: AuthorizationAttributes = { user, verb: 'watch', apiGroup: type.group, resource: type.resource, namespace: q.namespace,
        ...(q.nodeName !== undefined ? { fieldSelector: `spec.nodeName=${q.nodeName}` } : {}) };
      return decided(this.#authorizer.authorize(a), (d) => {
        if (d.decision === 'allow') return undefined;
        return d.evaluationError ? internal(d.evaluationError).status : forbiddenFor(a, d.reason).status;
      });
    };
    const confirming = this.#authenticator.confirm(user);
    return confirming ? confirming.then(authorized, (e) => (e instanceof StatusError ? e.status : Promise.reject(e))) : authorized();
  }

  #dispatch(req: ApiRequest, r: ResourceRequest, ctx: EncodeContext, user: UserInfo): Promise<ApiResponse> | ApiResponse {
    const reg = this.registry;
    const notAllowed = () => { throw methodNotAllowed(req.method, r.type.resource); };
    if (r.type.virtual) {
      if (r.verb !== 'create' || r.name) return notAllowed();
      return r.type.kind === 'TokenReview' ? handleTokenReview(req, r, this.#authenticator, ctx) : handleReview(req, r, this.#authorizer, user, ctx);
    }
    if ((r.verb === 'update' || r.verb === 'patch') && !r.name) return notAllowed(); // PUT or PATCH on a collection
    if (r.subresource === 'token') return r.verb === 'create' || !this.#serviceAccounts ? handleTokenRequest(req, r, { registry: reg, tokens: this.#serviceAccounts }, ctx) : notAllowed();
    if (r.verb !== 'get' && r.verb !== 'list' && r.verb !== 'watch') negotiateWrite(r, ctx);
    switch (r.subresource) {
      case undefined:
        break;
      case 'binding':
        return r.verb === 'create' ? handleBinding(req, r, reg, ctx) : notAllowed();
      case 'eviction':
        return r.verb === 'create' ? handleEviction(req, r, reg, ctx) : notAllowed();
      case 'finalize':
        return r.verb === 'update' ? handleUpdate(req, r, reg, ctx) : notAllowed();
      case 'scale':
        return r.verb === 'get' || r.verb === 'update' || r.verb === 'patch' ? handleScale(req, r, reg, ctx) : notAllowed();
      case 'status':
        if (r.verb === 'get') return handleGet(r, reg, ctx);
        if (r.verb === 'update') return handleUpdate(req, r, reg, ctx);
        if (r.verb === 'patch') return handlePatch(req, r, reg, ctx);
        return notAllowed();
    }
    switch (r.verb) {
      case 'get': return handleGet(r, reg, ctx);
      case 'list': return handleList(r, reg, ctx);
      case 'watch': return handleWatch(r, this.#watch, ctx);
      case 'create': return r.name ? notAllowed() : handleCreate(req, r, reg, ctx);
      case 'update': return handleUpdate(req, r, reg, ctx);
      case 'patch': return handlePatch(req, r, reg, ctx);
      case 'delete': return handleDelete(req, r, reg, ctx);
      case 'deletecollection': return handleDeleteCollection(req, r, reg, ctx);
    }
  }
}

/** A request no mode allowed, when a mode could not decide (a webhook unreachable), fails with 500 as in the real server, not 403. */
function refuseOnError(d: Decision): void {
  if (d.evaluationError) throw internal(d.evaluationError);
}

/** `r` with the headers added (responses are built afresh for each request). */
function withHeaders(r: ApiResponse, headers: Readonly<Record<string, string>> | undefined): ApiResponse {
  if (headers) Object.assign(r.headers, headers);
  return r;
}

function errorResponse(e: unknown): ApiResponse {
  if (e instanceof StatusError) return statusResponse(e.status);
  return statusResponse(internal(e instanceof Error ? e.message : String(e)).status);
}
