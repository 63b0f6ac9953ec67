// The root-ca-cert-publisher, as the real one (pkg/controller/certificates/rootcacertpublisher):
// every active namespace holds the ConfigMap `kube-root-ca.crt` with the cluster's CA bundle under
// `ca.crt`, by which pods verify the API server; it is made, put back when changed, and made
// again when deleted. The bundle is --root-ca-file's, or the one the process was given (serve
// gives the API server's serving certificate).
import { isAlreadyExists, isConflict, isForbidden, isNotFound } from '../../api/status.ts';
import type { KObject } from '../../api/types.ts';
import type { Informer } from '../../client/informer.ts';
import { QueuedController, type QueuedControllerInit } from '../queued-controller.ts';
import { CONFIG_MAPS, type ConfigMap, NAMESPACES, type Namespace } from '../../api/model/core.ts';

export const ROOT_CA_CONFIG_MAP = 'kube-root-ca.crt';
const DESCRIPTION = 'Contains a CA bundle that can be used to verify the kube-apiserver when using internal endpoints such as the internal service IP or kubernetes.default.svc. No other usage is guaranteed across distributions of Kubernetes clusters.';

export interface RootCaPublisherInit extends Omit<QueuedControllerInit, 'workers'> {
  /** The CA bundle (PEM). */
  rootCa: string;
}

export class RootCaPublisher extends QueuedController {
  readonly #namespaces: Informer<Namespace>;
  readonly #configMaps: Informer<ConfigMap>;
  readonly #data: Record<string, string>;

  constructor(init: RootCaPublisherInit) {
    super('root-ca-cert-publisher', { ...init, workers: 1 });
    this.#data = { 'ca.crt': init.rootCa };
    this.#namespaces = init.informers.get(NAMESPACES);
    this.#configMaps = init.informers.get(CONFIG_MAPS);
    const namespace = (ns: KObject) => this.queue.add(ns.metadata.name!);
    this.#namespaces.on({ add: namespace, update: (_old, ns) => namespace(ns) });
    const configMap = (cm: KObject) => cm.metadata.name === ROOT_CA_CONFIG_MAP && this.queue.add(cm.metadata.namespace!);
    this.#configMaps.on({ update: (_old, cm) => configMap(cm), delete: configMap });
  }

  protected async sync(name: string): Promise<void> {
    const ns = this.#namespaces.cache.get(undefined, name);
    if (!ns || ns.metadata.deletionTimestamp) return;
    const current = this.#configMaps.cache.get(name, ROOT_CA_CONFIG_MAP);
    const annotations = { ...current?.metadata.annotations, 'kubernetes.io/description': DESCRIPTION };
    if (current && JSON.stringify(current.data) === JSON.stringify(this.#data) && current.metadata.annotations?.['kubernetes.io/description'] === DESCRIPTION) return;
    try {
      if (current) await this.client.update(CONFIG_MAPS, { ...current, metadata: { ...current.metadata, annotations }, data: this.#data });
      else await this.client.create(CONFIG_MAPS, { metadata: { name: ROOT_CA_CONFIG_MAP, namespace: name, annotations }, data: this.#data } as KObject);
    } catch (e) {
      // Changed meanwhile (its event brings it back), or the namespace is going.
      if (!(isAlreadyExists(e) || isConflict(e) || isForbidden(e) || isNotFound(e))) throw e;
    }
  }
}
