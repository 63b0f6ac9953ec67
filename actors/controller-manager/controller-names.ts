// The names `--controllers` takes besides orchsim's own: the older short names of the controllers
// orchsim runs, and the real controller manager's other controllers, which orchsim accepts (so
// that a real command line works) and does not run.

/** Another name of a simulated controller → its name here. */
export const CONTROLLER_ALIASES: Readonly<Record<string, string>> = {
  nodelifecycle: 'node-lifecycle-controller',
  replicaset: 'replicaset-controller',
  podgc: 'pod-garbage-collector',
  'pod-garbage-collector-controller': 'pod-garbage-collector',
  garbagecollector: 'garbage-collector',
  'garbage-collector-controller': 'garbage-collector',
  namespace: 'namespace-controller',
  deployment: 'deployment-controller',
  daemonset: 'daemonset-controller',
  statefulset: 'statefulset-controller',
  'clusterrole-aggregation': 'clusterrole-aggregation-controller',
  resourcequota: 'resourcequota-controller',
  disruption: 'disruption-controller',
  job: 'job-controller',
  cronjob: 'cronjob-controller',
  'ttl-after-finished': 'ttl-after-finished-controller',
  endpoint: 'endpoints-controller',
  endpointslice: 'endpointslice-controller',
  endpointslicemirroring: 'endpointslice-mirroring-controller',
  serviceaccount: 'serviceaccount-controller',
  'root-ca-cert-publisher': 'root-ca-certificate-publisher-controller',
  horizontalpodautoscaling: 'horizontal-pod-autoscaler-controller',
};

/** Real controllers orchsim does not simulate, by their current and older names. */
export const NOT_SIMULATED_CONTROLLERS: ReadonlySet<string> = new Set([
  'bootstrap-signer-controller', 'bootstrapsigner',
  'token-cleaner-controller', 'tokencleaner',
  'replicationcontroller-controller', 'replicationcontroller',
  'serviceaccount-token-controller', 'serviceaccount-token',
  'certificatesigningrequest-signing-controller', 'csrsigning',
  'certificatesigningrequest-approving-controller', 'csrapproving',
  'certificatesigningrequest-cleaner-controller', 'csrcleaner',
  'ttl-controller', 'ttl',
  'node-ipam-controller', 'nodeipam',
  'node-route-controller', 'route',
  'service-lb-controller', 'service',
  'cloud-node-lifecycle-controller', 'cloud-node-lifecycle',
  'persistentvolume-binder-controller', 'persistentvolume-binder',
  'persistentvolume-attach-detach-controller', 'attachdetach',
  'persistentvolume-expander-controller', 'persistentvolume-expander',
  'persistentvolumeclaim-protection-controller', 'pvc-protection',
  'persistentvolume-protection-controller', 'pv-protection',
  'ephemeral-volume-controller', 'ephemeral-volume',
  'legacy-serviceaccount-token-cleaner-controller', 'legacy-service-account-token-cleaner',
]);
