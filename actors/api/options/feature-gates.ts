// Feature gates (seed 001, "Versioning"): `--feature-gates=Name=true,...` with the seed's names,
// stages and defaults. The API server, the scheduler and the controller manager share one list
// (the seed does not reproduce the controller manager's: orchsim gives it the same); the node
// agent's adds the gates it lists by name, graduated and locked to true. AllAlpha and AllBeta turn
// every gate of their stage on or off unless the gate is set itself.

export type Stage = 'ALPHA' | 'BETA' | 'GA';

export interface Gate {
  stage: Stage;
  default: boolean;
  /** A graduated gate: setting it to anything but its default is an error. */
  locked?: boolean;
}

const BETA_ON = 'APIListChunking APIPriorityAndFairness APIResponseCompression AnyVolumeDataSource AppArmor CPUManager CPUManagerPolicyBetaOptions CPUManagerPolicyOptions CSIMigrationAzureFile CSIMigrationvSphere CronJobTimeZone CustomResourceValidationExpressions DelegateFSGroupToCSIDriver DevicePlugins DownwardAPIHugePages EndpointSliceTerminatingCondition GRPCContainerProbe GracefulNodeShutdown GracefulNodeShutdownBasedOnPodPriority JobMutableNodeSchedulingDirectives JobReadyPods JobTrackingWithFinalizers KubeletCredentialProviders KubeletPodResources KubeletPodResourcesGetAllocatable LegacyServiceAccountTokenNoAutoGeneration LocalStorageCapacityIsolationFSQuotaMonitoring LogarithmicScaleDown LoggingBetaOptions MemoryManager MixedProtocolLBService OpenAPIEnums OpenAPIV3 PodDeletionCost ProbeTerminationGracePeriod RemainingItemCount RotateKubeletServerCertificate SeccompDefault ServerSideFieldValidation ServiceIPStaticSubrange ServiceInternalTrafficPolicy SizeMemoryBackedVolumes StorageVersionHash TopologyAwareHints TopologyManager WinOverlay WindowsHostProcessContainers';
const BETA_OFF = 'CSIMigrationPortworx ExperimentalHostUserNamespaceDefaulting MinDomainsInPodTopologySpread';
const ALPHA = 'APIServerIdentity APIServerTracing CPUManagerPolicyAlphaOptions CSIMigrationRBD CSINodeExpandSecret CSIVolumeHealth ContainerCheckpoint ContextualLogging CustomCPUCFSQuotaPeriod DisableCloudProviders DisableKubeletCloudCredentialProviders ExpandedDNSConfig HPAContainerMetrics HPAScaleToZero HonorPVReclaimPolicy IPTablesOwnershipCleanup InTreePluginAWSUnregister InTreePluginAzureDiskUnregister InTreePluginAzureFileUnregister InTreePluginGCEUnregister InTreePluginOpenStackUnregister InTreePluginPortworxUnregister InTreePluginRBDUnregister InTreePluginvSphereUnregister JobPodFailurePolicy KMSv2 KubeletInUserNamespace KubeletTracing LoggingAlphaOptions MatchLabelKeysInPodTopologySpread MaxUnavailableStatefulSet MemoryQoS MultiCIDRRangeAllocator NetworkPolicyStatus NodeInclusionPolicyInPodTopologySpread NodeOutOfServiceVolumeDetach NodeSwap PodAndContainerStatsFromCRI PodDisruptionConditions PodHasNetworkCondition ProcMountType ProxyTerminatingEndpoints QOSReserved ReadWriteOncePod RecoverVolumeExpansionFailure RetroactiveDefaultStorageClass SELinuxMountReadWriteOncePod StatefulSetAutoDeletePVC StorageVersionAPI UserNamespacesStatelessPodsSupport VolumeCapacityPriority WinDSR';
/** Named only in the node agent's list; graduated there (locked on). */
const NODE_AGENT_GA = 'EphemeralContainers IdentifyPodOS CSIInlineVolume DaemonSetUpdateSurge StatefulSetMinReadySeconds';

const gates = (names: string, gate: Gate): [string, Gate][] => names.split(' ').map((n) => [n, gate]);

export const CONTROL_PLANE_GATES: ReadonlyMap<string, Gate> = new Map([
  ['AllAlpha', { stage: 'ALPHA', default: false }],
  ['AllBeta', { stage: 'BETA', default: false }],
  ...gates(BETA_ON, { stage: 'BETA', default: true }),
  ...gates(BETA_OFF, { stage: 'BETA', default: false }),
  ...gates(ALPHA, { stage: 'ALPHA', default: false }),
]);

export const NODE_AGENT_GATES: ReadonlyMap<string, Gate> = new Map([
  ...CONTROL_PLANE_GATES,
  ...gates(NODE_AGENT_GA, { stage: 'GA', default: true, locked: true }),
]);

/** What `--feature-gates` must be, or undefined: known names, unlocked values. */
export function checkGates(known: ReadonlyMap<string, Gate>, given: Record<string, boolean>): string | undefined {
  for (const [name, value] of Object.entries(given)) {
    const gate = known.get(name);
    if (!gate) return `unrecognized feature gate: ${name}`;
    if (gate.locked && value !== gate.default) return `cannot set feature gate ${name} to ${value}, feature is locked to ${gate.default}`;
  }
  return undefined;
}

/** Whether `name` is on, given the flag's values (AllAlpha / AllBeta included). */
export function gateEnabled(known: ReadonlyMap<string, Gate>, given: Record<string, boolean>, name: string): boolean {
  const gate = known.get(name);
  if (!gate) throw new RangeError(`unrecognized feature gate: ${name}`);
  if (name in given) return given[name];
  if (gate.stage === 'ALPHA' && name !== 'AllAlpha' && given.AllAlpha !== undefined) return given.AllAlpha;
  if (gate.stage === 'BETA' && name !== 'AllBeta' && given.AllBeta !== undefined) return given.AllBeta;
  return gate.default;
}

/** The list `--help` shows: `Name=true|false (STAGE - default=...)`, sorted. */
export function gatesHelp(known: ReadonlyMap<string, Gate>): string {
  return [...known].sort(([a], [b]) => a.localeCompare(b)).map(([n, g]) => `${n}=true|false (${g.stage} - default=${g.default})`).join(', ');
}
