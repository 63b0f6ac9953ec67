// The serviceaccount controller, as the real one (pkg/controller/serviceaccount): every active
// namespace has a `default` ServiceAccount, made when the namespace appears and again whenever it
// is deleted, so pods that name no account can run (the ServiceAccount admission plugin waits for
// it). A namespace being deleted is left alone. One worker, as the real one runs.
import { isAlreadyExists, isConflict, isForbidden, isNotFound } from '../../api/status.ts';
import type { KObject } from '../../api/types.ts';
import type { Informer } from '../../client/informer.ts';
import { QueuedController, type QueuedControllerInit } from '../queued-controller.ts';
import { NAMESPACES, type Namespace, SERVICE_ACCOUNTS, type ServiceAccount } from '../../api/model/core.ts';

/** The accounts every namespace gets. */
const ACCOUNTS = ['default'];

export class ServiceAccountsController extends QueuedController {
  readonly #namespaces: Informer<Namespace>;
  readonly #accounts: Informer<ServiceAccount>;

  constructor(init: Omit<QueuedControllerInit, 'workers'>) {
    super('service-account-controller', { ...init, workers: 1 });
    this.#namespaces = init.informers.get(NAMESPACES);
    this.#accounts = init.informers.get(SERVICE_ACCOUNTS);
    const namespace = (ns: KObject) => this.queue.add(ns.metadata.name!);
    this.#namespaces.on({ add: namespace, update: (_old, ns) => namespace(ns) });
    this.#accounts.on({ delete: (sa) => ACCOUNTS.includes(sa.metadata.name!) && this.queue.add(sa.metadata.namespace!) });
  }

  protected async sync(name: string): Promise<void> {
    const ns = this.#namespaces.cache.get(undefined, name);
    if (!ns || ns.metadata.deletionTimestamp || ns.status?.phase === 'Terminating') return;
    for (const account of ACCOUNTS) {
      if (this.#accounts.cache.get(name, account)) continue;
      try {
        await this.client.create(SERVICE_ACCOUNTS, { metadata: { name: account, namespace: name } } as KObject);
      } catch (e) {
        // Made meanwhile (by another replica, or before the cache saw it), or the namespace is going.
        if (!(isAlreadyExists(e) || isConflict(e) || isForbidden(e) || isNotFound(e))) throw e;
      }
    }
  }
}
