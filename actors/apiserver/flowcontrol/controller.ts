// API Priority and Fairness: the configuration's consumer and the filter in one (apiserver
// pkg/util/flowcontrol apf_controller.go, apf_filter.go). It follows the PriorityLevelConfigurations
// and FlowSchemas in the store; on any change it rebuilds the levels (keeping each level's queues),
// the schemas in matching order (those naming a missing level left out, the mandatory exempt and
// catch-all supplied when absent) and the levels' limits (levels.ts), and marks each schema's
// Dangling condition as the real controller does. Each request is then classified (rules.ts):
// the first matching schema names its level and how its flow is told apart (by user, by namespace,
// or not at all); the level serves it, queues it or refuses it (queueset.ts).
//
// Not modelled: the real controller's limit of six status writes a minute per schema, and its
// work estimates (every request takes one seat); watches are not counted at all (see inflight.ts).
import type { Clock } from '../../api/env.ts';
import type { KObject } from '../../api/types.ts';
import type { ChangeRecord, Store } from '../storage/store.ts';
import { CATCH_ALL, MANDATORY_FLOW_SCHEMAS, MANDATORY_PRIORITY_LEVELS } from './bootstrap.ts';
import { Level, adjustLimits, divideServerLimit, levelSpec, type LevelSpec } from './levels.ts';
import type { FlowCounts, QueueSetObserver, RejectReason } from './queueset.ts';
import { RetryAfter } from './retry-after.ts';
import { bySchemaOrder, compileSchema, requestMatches, rulesOfUser, type CompiledSchema, type PolicyRules, type RequestDigest } from './rules.ts';
import type { UserInfo } from '../auth/authorizer.ts';
import { FLOW_SCHEMA_UID_HEADER, FlowAdmission, PRIORITY_LEVEL_UID_HEADER, type AdmissionHooks, type ExecutingNote, type Route } from './admission.ts';

/** How often the levels' limits follow their demand (the real borrowingAdjustmentPeriod). */
export const ADJUST_EVERY_MS = 10_000;

export interface FlowControlMetrics {
  /** The counts of a flow schema's requests at a level, which the level's queues keep up to date. */
  flow(level: string, flowSchema: string): FlowCounts;
  rejected(level: string, flowSchema: string, reason: RejectReason): void;
}

export interface DanglingCondition {
  type: 'Dangling';
  status: 'True' | 'False';
  reason: 'NotFound' | 'Found';
  message: string;
}

export interface FlowControlEnv {
  clock: Clock;
  store: Store;
  /** Where FlowSchemas and PriorityLevelConfigurations are kept in the store. */
  prefixes: { flowSchemas: string; priorityLevels: string };
  /** --max-requests-inflight plus --max-mutating-requests-inflight. */
  serverConcurrencyLimit: number;
  metrics: FlowControlMetrics;
  /** A request of that kind starts (+1) or stops (-1) executing: the in-flight gauges. */
  executing: ExecutingNote;
  /** Writes a schema's Dangling condition (a status update as the config consumer). */
  writeCondition(name: string, condition: DanglingCondition, atMs: number): Promise<void>;
}

export class FlowControl {
  readonly levels = new Map<string, Level>();
  /** The schemas in matching order, each with where it sends requests. */
  #schemas: Routed[] = [];
  /** Bumped at each rebuild: what was worked out per user before is stale. */
  #generation = 0;
  /** Per user (components reuse theirs), the schemas whose subjects name it, and those rules. */
  readonly #byUser = new WeakMap<UserInfo, { generation: number; schemas: { schema: Routed; rules: PolicyRules[] }[] }>();
  #nominalSum = 0;
  readonly #pls = new Map<string, KObject>();
  readonly #fss = new Map<string, KObject>();
  #dirty = true;
  /** The levels whose objects exist (not the mandatory ones standing in). */
  #configured = new Set<string>();
  #syncing: unknown;
  #adjusting: unknown;
  #stopWatching: (() => void) | undefined;
  readonly #hooks: AdmissionHooks;

  constructor(readonly env: FlowControlEnv) {
    const retryAfter = new RetryAfter(env.clock);
    this.#hooks = {
      executing: env.executing,
      refused: (level) => retryAfter.refused(level.name),
      // A level no longer configured goes once its last request is done.
      finished: (level) => {
        if (level.quiescing && level.queues.idle) this.#dirty = true;
      },
    };
    this.#digest();
  }

  /** Reads the configuration the store holds, follows its changes, and adjusts limits every 10 s. */
  async start(): Promise<void> {
    const { store, prefixes } = this.env;
    this.#stopWatching = store.onChange((c) => this.#changed(c));
    for (const obj of (await store.list(prefixes.priorityLevels)).items) this.#pls.set(obj.metadata.name!, obj);
    for (const obj of (await store.list(prefixes.flowSchemas)).items) this.#fss.set(obj.metadata.name!, obj);
    this.#dirty = true;
    this.#digest();
    await this.#writeConditions();
    this.#scheduleAdjust();
  }

  stop(): void {
    this.#stopWatching?.();
    const clock = this.env.clock;
    if (this.#adjusting !== undefined) clock.clearTimeout(this.#adjusting);
    if (this.#syncing !== undefined) clock.clearTimeout(this.#syncing);
    this.#adjusting = this.#syncing = undefined;
  }

  /** Classifies a request and asks its level for a seat; a queued one waits at most `waitLimitMs`. */
  admit(d: RequestDigest, kind: 'readOnly' | 'mutating', waitLimitMs: number): FlowAdmission {
    const schema = this.classify(d);
    const admission = new FlowAdmission(schema.route, kind, this.#hooks);
    const distinguisher = schema.route.level.spec.queuing.queues > 1 ? distinguisherOf(schema, d) : '';
    admission.begin(distinguisher, this.env.clock, waitLimitMs);
    return admission;
  }

  /** The schema a request matches: the first in matching order (catch-all when none does). */
  classify(d: RequestDigest): Routed {
    if (this.#dirty) this.#digest();
    let mine = this.#byUser.get(d.user);
    if (mine?.generation !== this.#generation) {
      const schemas = this.#schemas.map((schema) => ({ schema, rules: rulesOfUser(schema.rules, d.user) })).filter((c) => c.rules.length > 0);
      this.#byUser.set(d.user, (mine = { generation: this.#generation, schemas }));
    }
    for (const c of mine.schemas) if (requestMatches(c.rules, d)) return c.schema;
    return this.#schemas.find((s) => s.name === CATCH_ALL)!;
  }

  #changed(c: ChangeRecord): void {
    const { flowSchemas, priorityLevels } = this.env.prefixes;
    const map = c.key.startsWith(flowSchemas) ? this.#fss : c.key.startsWith(priorityLevels) ? this.#pls : undefined;
    if (!map) return;
    const name = c.object.metadata.name!;
    if (c.type === 'DELETED') map.delete(name);
    else map.set(name, c.object);
    this.#dirty = true;
    // Rebuilt at the next request, or soon after, when the schemas' conditions are brought up to date.
    this.#syncing ??= this.env.clock.setTimeout(() => {
      this.#syncing = undefined;
      if (this.#dirty) this.#digest();
      void this.#writeConditions();
    }, 0);
  }

  #digest(): void {
    this.#dirty = false;
    this.#generation++;
    // Levels from objects; the mandatory ones stand in for their objects when these are missing.
    const configured = new Set<string>();
    for (const pl of this.#pls.values()) {
      const spec = levelSpec(pl);
      if (typeof spec === 'string') continue; // a broken level is ignored, as the real one is
      configured.add(spec.name);
      this.#setLevel(spec);
    }
    const wanted = new Set(configured);
    for (const proto of MANDATORY_PRIORITY_LEVELS) {
      if (wanted.has(proto.metadata.name!)) continue;
      wanted.add(proto.metadata.name!);
      this.#setLevel(levelSpec(proto) as LevelSpec);
    }
    for (const [name, level] of this.levels) {
      if (wanted.has(name)) continue;
      if (level.queues.idle) this.levels.delete(name);
      else level.quiescing = true;
    }
    // Schemas naming no configured level are left out (their Dangling condition says so).
    const schemas = [...this.#fss.values()].map(compileSchema).filter((s) => configured.has(s.level));
    for (const m of MANDATORY_FLOW_SCHEMAS)
      if (!schemas.some((s) => s.name === m.metadata.name)) schemas.push(compileSchema(m));
    this.#schemas = schemas.sort(bySchemaOrder).map((s) => {
      const level = this.levels.get(s.level)!;
      return { ...s, route: { level, flow: this.env.metrics.flow(level.name, s.name),
        headers: { [FLOW_SCHEMA_UID_HEADER]: s.uid, [PRIORITY_LEVEL_UID_HEADER]: level.spec.uid } } };
    });
    this.#configured = configured;
    this.#nominalSum = divideServerLimit(this.levels.values(), this.env.serverConcurrencyLimit);
    adjustLimits(this.levels.values(), this.#nominalSum);
  }

  #setLevel(spec: LevelSpec): void {
    const level = this.levels.get(spec.name);
    if (level && level.exempt === spec.queuing.exempt) {
      level.spec = spec;
      level.quiescing = false;
      return;
    }
    this.levels.set(spec.name, new Level(spec, this.env.clock, (l) => this.#observer(l)));
  }

  #observer(level: Level): QueueSetObserver {
    const m = this.env.metrics;
    return {
      rejected: (fs, reason) => m.rejected(level.name, fs, reason),
      demand: (seats) => level.demand.integrator.set(seats),
    };
  }

  #scheduleAdjust(): void {
    this.#adjusting = this.env.clock.setTimeout(() => {
      if (this.#dirty) this.#digest();
      adjustLimits(this.levels.values(), this.#nominalSum);
      this.#scheduleAdjust();
    }, ADJUST_EVERY_MS);
  }

  /** Each schema's Dangling condition: True when its priority level does not exist. */
  async #writeConditions(): Promise<void> {
    for (const fs of [...this.#fss.values()]) {
      const level = String((fs.spec as { priorityLevelConfiguration?: { name?: unknown } } | undefined)?.priorityLevelConfiguration?.name ?? '');
      const found = this.#configured.has(level);
      const want: DanglingCondition = found
        ? { type: 'Dangling', status: 'False', reason: 'Found', message: `This FlowSchema references the PriorityLevelConfiguration object named ${JSON.stringify(level)} and it exists` }
        : { type: 'Dangling', status: 'True', reason: 'NotFound', message: `This FlowSchema references the PriorityLevelConfiguration object named ${JSON.stringify(level)} but there is no such object` };
      const conditions = (fs.status as { conditions?: Partial<DanglingCondition>[] } | undefined)?.conditions ?? [];
      const have = conditions.find((c) => c.type === 'Dangling');
      if (have && have.status === want.status && have.reason === want.reason && have.message === want.message) continue;
      try {
        await this.env.writeCondition(fs.metadata.name!, want, this.env.clock.now());
      } catch { /* deleted meanwhile, or changed: the change brings another pass */ }
    }
  }
}

type Routed = CompiledSchema & { route: Route };

/** ByUser: the user's name; ByNamespace: the request's namespace ("" for none); otherwise one flow. */
function distinguisherOf(schema: CompiledSchema, d: RequestDigest): string {
  if (schema.distinguisher === 'ByUser') return d.user.username;
  if (schema.distinguisher === 'ByNamespace') return d.resource?.namespace ?? '';
  return '';
}
