// The webhooks admission calls, read from the store as the configurations change (as RbacPolicy
// follows its objects): configurations in name order, each one's webhooks in their order, as the
// real webhook managers sort them. Each webhook is kept decoded, its selectors and match
// conditions compiled once.
import type { KObject } from '../../../api/types.ts';
import { lookupResource } from '../../../api/resources.ts';
import { compileLabelSelector, type CompiledSelector, type LabelSelector } from '../../../scheduler/label-selector.ts';
import { collectionKey } from '../../registry/keys.ts';
import type { Store } from '../../storage/store.ts';
import { compileCondition, type MatchCondition } from './match-conditions.ts';

export const ADMISSION_GROUP = 'admissionregistration.k8s.io';

export interface Rule {
  operations: string[];
  apiGroups: string[];
  apiVersions: string[];
  resources: string[];
  scope: string;
}

export interface ServiceReference {
  namespace: string;
  name: string;
  path: string;
  port: number;
}

export interface ClientConfig {
  url?: string;
  service?: ServiceReference;
  /** The PEM bundle the webhook's certificate must chain to; empty: the system's roots. */
  caPem: string;
}

/** A selector as compiled, or why it could not be (only an object stored around validation has one). */
export type Selector = CompiledSelector | { error: string };

export interface Hook {
  /** `<configuration>/<webhook>/<n>`, n counting earlier webhooks of that name in the configuration. */
  readonly uid: string;
  readonly configuration: string;
  readonly name: string;
  readonly mutating: boolean;
  readonly rules: readonly Rule[];
  readonly failurePolicy: string;
  readonly matchPolicy: string;
  readonly namespaceSelector: Selector;
  readonly objectSelector: Selector;
  readonly sideEffects: string;
  readonly timeoutSeconds: number;
  readonly admissionReviewVersions: readonly string[];
  readonly reinvocationPolicy: string;
  readonly clientConfig: ClientConfig;
  readonly matchConditions: readonly MatchCondition[];
}

type Fields = Record<string, unknown>;
const str = (v: unknown, fallback = ''): string => (typeof v === 'string' ? v : fallback);
const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
const objects = (v: unknown): Fields[] => (Array.isArray(v) ? v.filter((x): x is Fields => typeof x === 'object' && x !== null) : []);

function selector(v: unknown): Selector {
  try {
    return compileLabelSelector((v ?? {}) as LabelSelector);
  } catch (e) {
    return { error: (e as Error).message };
  }
}

function clientConfig(cc: Fields): ClientConfig {
  const s = cc.service as Fields | undefined;
  return {
    ...(typeof cc.url === 'string' ? { url: cc.url } : {}),
    ...(s ? { service: { namespace: str(s.namespace), name: str(s.name), path: str(s.path), port: typeof s.port === 'number' ? s.port : 443 } } : {}),
    caPem: typeof cc.caBundle === 'string' ? Buffer.from(cc.caBundle, 'base64').toString('utf8') : '',
  };
}

/** The webhooks of one configuration, decoded (defaults are already in the stored object). */
export function hooksOf(config: KObject, mutating: boolean): Hook[] {
  const configuration = config.metadata.name ?? '';
  const seen = new Map<string, number>();
  return objects((config as Fields).webhooks).map((h) => {
    const name = str(h.name);
    const n = seen.get(name) ?? 0;
    seen.set(name, n + 1);
    return {
      uid: `${configuration}/${name}/${n}`, configuration, name, mutating,
      rules: objects(h.rules).map((r) => ({ operations: strings(r.operations), apiGroups: strings(r.apiGroups), apiVersions: strings(r.apiVersions),
        resources: strings(r.resources), scope: str(r.scope, '*') })),
      failurePolicy: str(h.failurePolicy, 'Fail'), matchPolicy: str(h.matchPolicy, 'Equivalent'),
      namespaceSelector: selector(h.namespaceSelector), objectSelector: selector(h.objectSelector),
      sideEffects: str(h.sideEffects), timeoutSeconds: typeof h.timeoutSeconds === 'number' ? h.timeoutSeconds : 10,
      admissionReviewVersions: strings(h.admissionReviewVersions), reinvocationPolicy: str(h.reinvocationPolicy, 'Never'),
      clientConfig: clientConfig((h.clientConfig ?? {}) as Fields),
      matchConditions: objects(h.matchConditions).map((c) => compileCondition(str(c.name), str(c.expression))),
    };
  });
}

class Configurations {
  readonly #byName = new Map<string, KObject>();
  hooks: readonly Hook[] = [];

  constructor(readonly mutating: boolean) {}

  put(obj: KObject, deleted: boolean): void {
    const name = obj.metadata.name ?? '';
    if (deleted) this.#byName.delete(name);
    else this.#byName.set(name, obj);
    this.hooks = [...this.#byName.keys()].sort().flatMap((n) => hooksOf(this.#byName.get(n)!, this.mutating));
  }
}

export class WebhookSource {
  readonly #mutating = new Configurations(true);
  readonly #validating = new Configurations(false);
  readonly #groupPrefix: string;
  readonly #prefixes: [string, Configurations][];

  constructor(readonly store: Store, keyPrefix: string) {
    const type = (resource: string) => lookupResource(ADMISSION_GROUP, 'v1', resource)!;
    this.#prefixes = [[collectionKey(keyPrefix, type('mutatingwebhookconfigurations'), undefined), this.#mutating],
      [collectionKey(keyPrefix, type('validatingwebhookconfigurations'), undefined), this.#validating]];
    this.#groupPrefix = `${keyPrefix}/${ADMISSION_GROUP}/`;
    // One prefix test per change for everything else the store commits.
    store.onChange((c) => {
      if (!c.key.startsWith(this.#groupPrefix)) return;
      for (const [prefix, configs] of this.#prefixes) if (c.key.startsWith(prefix)) configs.put(c.object, c.type === 'DELETED');
    });
  }

  /** Reads what the store holds; changes after come through onChange. */
  async load(): Promise<void> {
    for (const [prefix, configs] of this.#prefixes)
      for (const obj of (await this.store.list(prefix)).items) configs.put(obj, false);
  }

  get mutating(): readonly Hook[] {
    return this.#mutating.hooks;
  }

  get validating(): readonly Hook[] {
    return this.#validating.hooks;
  }
}
