// The node agent's configuration: the file `--config` names (kind NodeAgentConfiguration; the
// seed's `{nodeagent_config_group}` is `nodeagent.config.orch.io` here, so the apiVersion is
// `nodeagent.config.orch.io/v1beta1`), YAML or JSON, merged with the command line as the real
// agent does: without a file the command line's defaults apply; with one, the file's defaults
// fill what it leaves out; flags given explicitly override either. The merged result is checked
// field by field (config-fields.ts) and across fields, feature gates included (here).
import { dirname, isAbsolute, join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { gateEnabled, NODE_AGENT_GATES } from '../api/options/feature-gates.ts';
import { duration } from '../api/options/kinds.ts';
import { distance, OptionError } from '../api/options/table.ts';
import { FIELDS, type FieldPath, type FieldSpec, type NodeAgentConfiguration } from './config-fields.ts';
import { FLAG_FIELDS, NODE_AGENT_FLAGS } from './flags.ts';
import type { NodeAgentOptions } from './options.ts';

export type { NodeAgentConfiguration } from './config-fields.ts';
export const CONFIG_GROUP = 'nodeagent.config.orch.io';
export const CONFIG_API_VERSION = `${CONFIG_GROUP}/v1beta1`;
export const CONFIG_KIND = 'NodeAgentConfiguration';
export const CREDENTIAL_PROVIDER_KIND = 'CredentialProviderConfig';

const BY_PATH = new Map<string, FieldSpec>(FIELDS.map((f) => [f.field, f]));
/** The nested objects: `authentication`, `authentication.webhook`, `logging.options.json`, ... */
const OBJECTS = new Set(FIELDS.flatMap((f) => f.field.split('.').slice(0, -1).map((_, i, parts) => parts.slice(0, i + 1).join('.'))));
/** Paths in the file that are relative to the file's own directory, as the real agent reads them. */
const FILE_RELATIVE: FieldPath[] = ['staticPodPath', 'tlsCertFile', 'tlsPrivateKeyFile', 'authentication.x509.clientCAFile', 'resolvConf'];

const isMapping = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
const show = (v: unknown) => JSON.stringify(v) ?? String(v);

/** A YAML or JSON document (JSON is YAML): one mapping, duplicate keys refused. */
export function parseConfigText(text: string, where: string): Record<string, unknown> {
  let doc: unknown;
  try {
    doc = parseYaml(text);
  } catch (e) {
    throw new OptionError(`${where}: not a YAML or JSON document: ${(e as Error).message.split('\n')[0]}`);
  }
  if (!isMapping(doc)) throw new OptionError(`${where}: must be a mapping with apiVersion ${CONFIG_API_VERSION} and a kind, got ${show(doc)}`);
  return doc;
}

function checkKind(doc: Record<string, unknown>, kind: string, where: string): void {
  if (doc.apiVersion !== CONFIG_API_VERSION) throw new OptionError(`${where}: apiVersion must be ${CONFIG_API_VERSION}, got ${show(doc.apiVersion)}`);
  if (doc.kind !== kind) throw new OptionError(`${where}: kind must be ${kind}, got ${show(doc.kind)}`);
}

function suggest(path: string): string {
  const known = [...BY_PATH.keys(), ...OBJECTS];
  let best: string | undefined;
  let bestDistance = 3;
  for (const k of known) {
    const d = distance(path.toLowerCase(), k.toLowerCase());
    if (d < bestDistance) [best, bestDistance] = [k, d];
  }
  return best ? `; did you mean "${best}"?` : '';
}

/** Reads one field's value from a file, by its row's kind and rule. */
function readField(spec: FieldSpec, raw: unknown, where: string): unknown {
  const bad = (why: string) => new OptionError(`${where}: invalid value ${show(raw)} for ${spec.field}: ${why}`);
  let value: unknown;
  try {
    value = spec.kind.read(raw);
  } catch (e) {
    if (e instanceof RangeError) throw bad(e.message);
    throw e;
  }
  const broken = (spec.rule as ((v: unknown) => string | undefined) | undefined)?.(value);
  if (broken) throw bad(broken);
  return value;
}

/** A NodeAgentConfiguration document's fields, by dotted path; unknown fields are refused by name. */
export function readConfigDocument(doc: Record<string, unknown>, where: string): Map<FieldPath, unknown> {
  checkKind(doc, CONFIG_KIND, where);
  const values = new Map<FieldPath, unknown>();
  const walk = (object: Record<string, unknown>, prefix: string) => {
    for (const [key, raw] of Object.entries(object)) {
      const path = `${prefix}${key}`;
      if (prefix === '' && (key === 'apiVersion' || key === 'kind')) continue;
      const spec = BY_PATH.get(path);
      if (spec) {
        if (raw !== null) values.set(spec.field, readField(spec, raw, where));
      } else if (OBJECTS.has(path)) {
        if (raw === null) continue;
        if (!isMapping(raw)) throw new OptionError(`${where}: ${path} must be a mapping, got ${show(raw)}`);
        walk(raw, `${path}.`);
      } else throw new OptionError(`${where}: unknown field "${path}"${suggest(path)}`);
    }
  };
  walk(doc, '');
  return values;
}

type Check = (c: NodeAgentConfiguration, at: (field: FieldPath) => string) => string | undefined;
const nonEmpty = (v: object | undefined) => v !== undefined && Object.keys(v).length > 0;

/** Fields whose value needs feature gates: when `used` holds, each gate must be on. */
const GATED: [FieldPath, (c: NodeAgentConfiguration) => boolean, string[]][] = [
  ['cpuManagerPolicy', (c) => c.cpuManagerPolicy !== 'none', ['CPUManager']],
  ['cpuManagerPolicyOptions', (c) => nonEmpty(c.cpuManagerPolicyOptions), ['CPUManager', 'CPUManagerPolicyOptions']],
  ['memoryManagerPolicy', (c) => c.memoryManagerPolicy !== 'None', ['MemoryManager']],
  ['topologyManagerPolicy', (c) => c.topologyManagerPolicy !== 'none', ['TopologyManager']],
  ['topologyManagerScope', (c) => c.topologyManagerScope !== 'container', ['TopologyManager']],
  ['qosReserved', (c) => nonEmpty(c.qosReserved), ['QOSReserved']],
  ['serverTLSBootstrap', (c) => c.serverTLSBootstrap, ['RotateKubeletServerCertificate']],
  ['shutdownGracePeriod', (c) => c.shutdownGracePeriod > 0, ['GracefulNodeShutdown']],
  ['shutdownGracePeriodCriticalPods', (c) => c.shutdownGracePeriodCriticalPods > 0, ['GracefulNodeShutdown']],
  ['shutdownGracePeriodByPodPriority', (c) => nonEmpty(c.shutdownGracePeriodByPodPriority), ['GracefulNodeShutdown', 'GracefulNodeShutdownBasedOnPodPriority']],
  ['memorySwap.swapBehavior', (c) => (c.memorySwap?.swapBehavior ?? '') !== '', ['NodeSwap']],
  ['cpuCFSQuotaPeriod', (c) => c.cpuCFSQuotaPeriod !== 100, ['CustomCPUCFSQuotaPeriod']],
  ['seccompDefault', (c) => c.seccompDefault === true, ['SeccompDefault']],
  ['tracing.endpoint', (c) => c.tracing !== undefined, ['KubeletTracing']],
  ['logging.format', (c) => c.logging.format === 'json', ['LoggingBetaOptions']],
  ['logging.options.json.splitStream', (c) => c.logging.options.json.splitStream, ['LoggingAlphaOptions']],
  ['logging.options.json.infoBufferSize', (c) => c.logging.options.json.infoBufferSize !== '0', ['LoggingAlphaOptions']],
];

const CHECKS: Check[] = [
  (c, at) => (c.imageGCHighThresholdPercent > c.imageGCLowThresholdPercent ? undefined : `${at('imageGCHighThresholdPercent')} must be above ${at('imageGCLowThresholdPercent')}`),
  (c, at) => (c.iptablesMasqueradeBit !== c.iptablesDropBit ? undefined : `${at('iptablesMasqueradeBit')} and ${at('iptablesDropBit')} must be different bits`),
  (c, at) => (c.podsPerCore <= c.maxPods ? undefined : `${at('podsPerCore')} must not be above ${at('maxPods')}`),
  (c, at) => (c.shutdownGracePeriodCriticalPods <= c.shutdownGracePeriod ? undefined : `${at('shutdownGracePeriodCriticalPods')} must not be above ${at('shutdownGracePeriod')}, the total it is part of`),
  (c, at) => (['shutdownGracePeriod', 'shutdownGracePeriodCriticalPods'] as const).map((f) => (c[f] > 0 && c[f] < 1000 ? `${at(f)} must be 0 or at least 1s` : undefined)).find(Boolean),
  (c, at) => (nonEmpty(c.shutdownGracePeriodByPodPriority) && (c.shutdownGracePeriod > 0 || c.shutdownGracePeriodCriticalPods > 0)
    ? `${at('shutdownGracePeriodByPodPriority')} cannot be set with ${at('shutdownGracePeriod')} and ${at('shutdownGracePeriodCriticalPods')}: use one or the other` : undefined),
  (c, at) => (c.cpuCFSQuotaPeriod >= 1 && c.cpuCFSQuotaPeriod <= 1000 ? undefined : `${at('cpuCFSQuotaPeriod')} must be from 1ms to 1s`),
  (c, at) => (c.systemCgroups !== '' && c.cgroupRoot === '' ? `${at('systemCgroups')} needs cgroupRoot to be set` : undefined),
  (c, at) => (c.reservedSystemCPUs !== '' && (c.systemReservedCgroup !== '' || c.orchReservedCgroup !== '')
    ? `${at('reservedSystemCPUs')} cannot be used with systemReservedCgroup or orchReservedCgroup` : undefined),
  (c, at) => {
    const e = c.enforceNodeAllocatable;
    if (new Set(e).size !== e.length) return `${at('enforceNodeAllocatable')} names an enforcement twice`;
    if (e.includes('none')) return e.length > 1 ? `${at('enforceNodeAllocatable')} may hold nothing else when it holds none` : undefined;
    if (e.includes('system-reserved') && c.systemReservedCgroup === '') return `${at('enforceNodeAllocatable')} holds system-reserved, so systemReservedCgroup must be set`;
    if (e.includes('orch-reserved') && c.orchReservedCgroup === '') return `${at('enforceNodeAllocatable')} holds orch-reserved, so orchReservedCgroup must be set`;
    return e.length > 0 && !c.cgroupsPerQOS ? `${at('enforceNodeAllocatable')} needs cgroupsPerQOS to be true` : undefined;
  },
  (c, at) => {
    const missing = Object.keys(c.evictionSoft ?? {}).filter((s) => c.evictionSoftGracePeriod?.[s] === undefined);
    return missing.length ? `${at('evictionSoft')} needs a grace period in evictionSoftGracePeriod for ${missing.join(', ')}` : undefined;
  },
  (c, at) => {
    const seen = new Set<string>();
    for (const r of c.reservedMemory ?? []) for (const k of Object.keys(r.limits)) {
      if (seen.has(`${r.numaNode}/${k}`)) return `${at('reservedMemory')} reserves ${k} on NUMA node ${r.numaNode} twice`;
      seen.add(`${r.numaNode}/${k}`);
    }
    return undefined;
  },
  (c, at) => (c.logging.vmodule?.length && c.logging.format !== 'text' ? `${at('logging.vmodule')} works with the text format only, not ${at('logging.format')}` : undefined),
  (c, at) => {
    const given = c.featureGates ?? {};
    for (const [field, used, gates] of GATED) {
      if (!used(c)) continue;
      const off = gates.find((g) => !gateEnabled(NODE_AGENT_GATES, given, g));
      if (off) return `${at(field)} needs the feature gate ${off}, which is off (featureGates: {${off}: true} or --feature-gates=${off}=true)`;
    }
    return undefined;
  },
];

function get(c: NodeAgentConfiguration, path: string): unknown {
  return path.split('.').reduce<unknown>((o, k) => (isMapping(o) ? o[k] : undefined), c);
}
function set(target: Record<string, unknown>, path: string, value: unknown): void {
  const keys = path.split('.');
  let o = target;
  for (const k of keys.slice(0, -1)) o = (o[k] ??= {}) as Record<string, unknown>;
  o[keys[keys.length - 1]] = value;
}

/** Every cross-field and feature-gate rule; throws one OptionError listing what is wrong, each field with its value and source. */
export function checkNodeAgentConfiguration(c: NodeAgentConfiguration, sources: ReadonlyMap<FieldPath, string> = new Map()): void {
  const at = (field: FieldPath) => {
    const value = get(c, field);
    const shown = value === undefined ? 'unset' : (BY_PATH.get(field)!.kind.format as (v: unknown) => string)(value);
    return `${field} ${shown.includes(' ') || shown === '' ? show(shown) : shown} (${sources.get(field) ?? 'default'})`;
  };
  const problems = CHECKS.map((check) => check(c, at)).filter((p): p is string => p !== undefined);
  if (problems.length) throw new OptionError(`invalid node agent configuration: ${problems.join('; ')}`);
}

export interface LoadedNodeAgentConfig {
  config: NodeAgentConfiguration;
  /** Where each field's value came from: `from <file>`, `from --flag`, or absent for a default. */
  sources: ReadonlyMap<FieldPath, string>;
  /** The options without a file field, by flag name (`orchconfig`, `node-labels`, `hostname-override`, ...). */
  flags: Record<string, unknown>;
  /** Flags given explicitly. */
  given: ReadonlySet<string>;
  warnings: string[];
  credentialProviders?: CredentialProviderConfig;
}

/**
 * The command line `argv` with the file `--config` names, read by `readFile` (given the path as
 * written: relative paths are the caller's working directory's). Throws an OptionError naming the
 * file or flag, the field, the value and the rule.
 */
export function loadNodeAgentConfig(argv: readonly string[], readFile: (path: string) => string): LoadedNodeAgentConfig {
  const parsed = NODE_AGENT_FLAGS.parse(argv);
  if (parsed.positional.length) throw new OptionError(`unexpected argument ${show(parsed.positional[0])}: the node agent takes flags only`);
  const path = parsed.extra.config as string | undefined;
  const fromFile = path === undefined ? new Map<FieldPath, unknown>() : readConfigDocument(parseConfigText(read(readFile, path, '--config'), path), path);
  for (const f of FILE_RELATIVE) {
    const v = fromFile.get(f) as string | undefined;
    if (path !== undefined && v && !isAbsolute(v)) fromFile.set(f, join(dirname(path), v));
  }
  const config: Record<string, unknown> = {};
  const sources = new Map<FieldPath, string>();
  for (const spec of FIELDS) {
    const flagGiven = spec.flag !== undefined && parsed.given.has(spec.flag);
    let value = 'flagDefault' in spec && path === undefined ? spec.flagDefault : spec.default;
    if (fromFile.has(spec.field)) {
      value = fromFile.get(spec.field);
      sources.set(spec.field, `from ${path}`);
    }
    if (flagGiven) {
      const flagValue = parsed.extra[spec.flag!];
      // As the real agent does, gates from the flag are added to the file's, not put in their place.
      value = spec.field === 'featureGates' ? { ...(value as object | undefined), ...(flagValue as object) } : flagValue;
      sources.set(spec.field, `from --${spec.flag}`);
    }
    if (value !== undefined) set(config, spec.field, value);
  }
  // The seed: the report frequency defaults to the update frequency when that is set explicitly.
  if (!sources.has('nodeStatusReportFrequency') && sources.has('nodeStatusUpdateFrequency')) {
    config.nodeStatusReportFrequency = config.nodeStatusUpdateFrequency;
    sources.set('nodeStatusReportFrequency', `as nodeStatusUpdateFrequency, ${sources.get('nodeStatusUpdateFrequency')}`);
  }
  const c = config as unknown as NodeAgentConfiguration;
  checkNodeAgentConfiguration(c, sources);
  const flags = Object.fromEntries(Object.entries(parsed.extra).filter(([name]) => !FLAG_FIELDS.has(name)));
  const warnings = [...parsed.warnings, ...configWarnings(c, flags)];
  const providerPath = flags['image-credential-provider-config'] as string | undefined;
  let credentialProviders: CredentialProviderConfig | undefined;
  if ((providerPath === undefined) !== (flags['image-credential-provider-bin-dir'] === undefined))
    throw new OptionError('--image-credential-provider-config and --image-credential-provider-bin-dir go together: the file names plugins the directory holds');
  if (providerPath !== undefined) {
    if (!gateEnabled(NODE_AGENT_GATES, c.featureGates ?? {}, 'KubeletCredentialProviders'))
      throw new OptionError('--image-credential-provider-config needs the feature gate KubeletCredentialProviders, which is off');
    credentialProviders = validateCredentialProviderConfig(parseConfigText(read(readFile, providerPath, '--image-credential-provider-config'), providerPath), providerPath);
  }
  return { config: c, sources, flags, given: parsed.given, warnings, ...(credentialProviders ? { credentialProviders } : {}) };
}

function read(readFile: (path: string) => string, path: string, flag: string): string {
  try {
    return readFile(path);
  } catch (e) {
    throw new OptionError(`cannot read the file ${flag} names (${path}): ${(e as Error).message}`);
  }
}

/** What is accepted but will not do what it seems to. */
function configWarnings(c: NodeAgentConfiguration, flags: Record<string, unknown>): string[] {
  const out: string[] = [];
  if (c.enableContentionProfiling && !c.enableDebuggingHandlers) out.push('enableContentionProfiling has no effect while enableDebuggingHandlers is false');
  if (c.registerWithTaints?.length && !c.registerNode) out.push('registerWithTaints has no effect while registerNode is false');
  if (c.podCIDR !== '' && flags.orchconfig !== undefined) out.push('podCIDR is used in standalone mode only: with --orchconfig the API server assigns the node\'s range');
  return out;
}

/**
 * The simulated agent's options from a loaded configuration: the fields it acts on today.
 * A pressure transition period of 0 (no hold) becomes 1 ms, as NodeAgentOptions wants it positive.
 */
export function nodeAgentOptionsFromConfig(loaded: LoadedNodeAgentConfig): Partial<NodeAgentOptions> {
  const c = loaded.config;
  return {
    nodeLeaseDurationSeconds: c.nodeLeaseDurationSeconds,
    nodeStatusUpdateFrequencyMs: c.nodeStatusUpdateFrequency,
    nodeStatusReportFrequencyMs: c.nodeStatusReportFrequency,
    maxPods: c.maxPods,
    podsPerCore: c.podsPerCore,
    evictionHard: { ...c.evictionHard },
    evictionPressureTransitionPeriodMs: Math.max(1, c.evictionPressureTransitionPeriod),
    orchApiQps: c.orchAPIQPS,
    orchApiBurst: c.orchAPIBurst,
    eventRecordQps: c.eventRecordQPS,
    eventBurst: c.eventBurst,
    registerWithTaints: c.registerNode ? [...(c.registerWithTaints ?? [])] : [],
    nodeLabels: { ...((loaded.flags['node-labels'] as Record<string, string> | undefined) ?? {}) },
  };
}

export interface CredentialProvider {
  name: string;
  matchImages: string[];
  defaultCacheDurationMs: number;
  apiVersion: string;
  args: string[];
  env: { name: string; value: string }[];
}
export interface CredentialProviderConfig {
  providers: CredentialProvider[];
}

/** The exchange versions a plugin may speak: the neutral group, and the real agent's so real plugins work. */
export const CREDENTIAL_PROVIDER_API_VERSIONS = ['credentialprovider.nodeagent.orch.io', 'credentialprovider.kubelet.k8s.io'].flatMap((g) => ['v1alpha1', 'v1beta1', 'v1'].map((v) => `${g}/${v}`));
const DOMAIN_GLOB = /^[a-zA-Z0-9*]([-a-zA-Z0-9*]*[a-zA-Z0-9*])?(\.[a-zA-Z0-9*]([-a-zA-Z0-9*]*[a-zA-Z0-9*])?)*$/;

/** An image pattern: host[:port][/path], globs (`*`) in the host only. */
export function matchImageProblem(pattern: string): string | undefined {
  if (pattern.includes('://')) return 'must not hold a scheme';
  const slash = pattern.indexOf('/');
  const [host, port] = (slash < 0 ? pattern : pattern.slice(0, slash)).split(/:(?=[^:]*$)/);
  if (!DOMAIN_GLOB.test(host ?? '')) return 'must be host[:port][/path] with a DNS host, which may hold * globs';
  if (port !== undefined && !(/^\d+$/.test(port) && Number(port) <= 65535)) return 'the port must be a number up to 65535';
  if (slash >= 0 && pattern.slice(slash).includes('*')) return 'globs are allowed in the domain only';
  return undefined;
}

/** A parsed CredentialProviderConfig document, checked as the real agent checks it; throws an OptionError listing every problem. */
export function validateCredentialProviderConfig(doc: Record<string, unknown>, where = CREDENTIAL_PROVIDER_KIND): CredentialProviderConfig {
  checkKind(doc, CREDENTIAL_PROVIDER_KIND, where);
  const problems: string[] = [];
  const unknown = (o: Record<string, unknown>, known: string[], at: string) => Object.keys(o).filter((k) => !known.includes(k)).forEach((k) => problems.push(`unknown field "${at}${k}"`));
  unknown(doc, ['apiVersion', 'kind', 'providers'], '');
  const list = doc.providers;
  if (!Array.isArray(list) || list.length === 0) problems.push('providers: at least one provider is required');
  const names = new Set<string>();
  const providers = (Array.isArray(list) ? list : []).map((p, i): CredentialProvider => {
    const at = `providers[${i}]`;
    const o = isMapping(p) ? p : (problems.push(`${at}: must be a mapping`), {});
    unknown(o, ['name', 'matchImages', 'defaultCacheDuration', 'apiVersion', 'args', 'env'], `${at}.`);
    const name = typeof o.name === 'string' ? o.name : '';
    if (name === '') problems.push(`${at}.name: required`);
    else if (/[/\s]/.test(name) || name === '.' || name === '..') problems.push(`${at}.name ${show(name)}: must be a file name in the plugin directory (no '/', no spaces, not . or ..)`);
    else if (names.has(name)) problems.push(`${at}.name ${show(name)}: duplicate provider name`);
    names.add(name);
    const images = Array.isArray(o.matchImages) ? o.matchImages : [];
    if (images.length === 0) problems.push(`${at}.matchImages: at least one image pattern is required`);
    images.forEach((m, j) => {
      const bad = typeof m === 'string' ? matchImageProblem(m) : 'must be a string';
      if (bad) problems.push(`${at}.matchImages[${j}] ${show(m)}: ${bad}`);
    });
    let cacheMs = 0;
    if (o.defaultCacheDuration === undefined) problems.push(`${at}.defaultCacheDuration: required`);
    else {
      try {
        cacheMs = duration.read(o.defaultCacheDuration);
        if (cacheMs < 0) problems.push(`${at}.defaultCacheDuration ${show(o.defaultCacheDuration)}: must not be negative`);
      } catch (e) {
        problems.push(`${at}.defaultCacheDuration ${show(o.defaultCacheDuration)}: ${(e as Error).message}`);
      }
    }
    const apiVersion = typeof o.apiVersion === 'string' ? o.apiVersion : '';
    if (apiVersion === '') problems.push(`${at}.apiVersion: required`);
    else if (!CREDENTIAL_PROVIDER_API_VERSIONS.includes(apiVersion)) problems.push(`${at}.apiVersion ${show(apiVersion)}: must be one of ${CREDENTIAL_PROVIDER_API_VERSIONS.join(', ')}`);
    const args = o.args === undefined ? [] : Array.isArray(o.args) && o.args.every((a) => typeof a === 'string') ? (o.args as string[]) : (problems.push(`${at}.args: must be a list of strings`), []);
    const env = (o.env === undefined ? [] : Array.isArray(o.env) ? o.env : (problems.push(`${at}.env: must be a list`), [])).map((e, j) => {
      const v = isMapping(e) ? e : {};
      unknown(v, ['name', 'value'], `${at}.env[${j}].`);
      if (typeof v.name !== 'string' || v.name === '') problems.push(`${at}.env[${j}].name: required`);
      if (typeof v.value !== 'string') problems.push(`${at}.env[${j}].value: required, a string`);
      return { name: String(v.name ?? ''), value: String(v.value ?? '') };
    });
    return { name, matchImages: images.map(String), defaultCacheDurationMs: cacheMs, apiVersion, args, env };
  });
  if (problems.length) throw new OptionError(`${where}: invalid ${CREDENTIAL_PROVIDER_KIND}: ${problems.join('; ')}`);
  return { providers };
}

/**
 * A scenario's `options.nodeagent`: the fields of a NodeAgentConfiguration (`maxPods: 50`,
 * `evictionHard: { memory.available: 200Mi }`), read and checked as the file would be; the
 * simulated agent's options from them.
 */
export function nodeAgentFromScenario(record: Record<string, unknown>, where = 'options.nodeagent'): Partial<NodeAgentOptions> {
  const doc = JSON.stringify({ apiVersion: CONFIG_API_VERSION, kind: CONFIG_KIND, ...record });
  return nodeAgentOptionsFromConfig(loadNodeAgentConfig([`--config=${where}`], () => doc));
}
