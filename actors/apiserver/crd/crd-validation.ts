// What `POST customresourcedefinitions` checks (apiextensions pkg/apis/apiextensions/validation,
// ValidateCustomResourceDefinition) on a defaulted v1 object. The real server validates its
// internal form, into which v1 converts by moving per-version schemas, subresources and printer
// columns that are identical in every version to the top level: so with one version (or identical
// ones) a schema's findings read `spec.validation.openAPIV3Schema...`, else
// `spec.versions[i].schema.openAPIV3Schema...`. Conversion `Webhook` is refused here: this server
// converts no objects between versions.
import type { StatusCause } from '../../api/status.ts';
import { isPlainObject, type Json } from '../../api/types.ts';
import { jsonEqual } from '../patch/json-value.ts';
import { validateName } from '../validation/names.ts';
import { validateNames } from './crd-names.ts';
import { child, forbidden, GoText, goQuote, index, invalid, notSupported, required } from './field-errors.ts';
import { validateColumns, validateSubresources } from './crd-parts.ts';
import { validateSchema } from './crd-schema.ts';
import { dns1035Problems } from './embedded.ts';
import type { CustomResourceDefinition, CustomResourceDefinitionVersion } from './types.ts';

const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

const list = <T>(v: unknown): T[] => (Array.isArray(v) ? (v.filter(isPlainObject) as T[]) : []);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/** The causes of a 422 for `crd` (defaulted by defaultCRD first); empty when it is valid. */
export function validateCRD(crd: CustomResourceDefinition): StatusCause[] {
  const spec = isPlainObject(crd.spec) ? crd.spec : ({} as CustomResourceDefinition['spec']);
  const out: StatusCause[] = [...validateCRDName(crd)];
  out.push(...validateSpec(spec, 'spec'));
  out.push(...validateNames(isPlainObject(crd.status?.acceptedNames) ? crd.status.acceptedNames : ({} as never), 'status.acceptedNames'));
  out.push(...validateStoredVersions(crd.status?.storedVersions, list<CustomResourceDefinitionVersion>(spec.versions)));
  out.push(...validateApproval(crd));
  if (spec.preserveUnknownFields === true)
    out.push(invalid('spec.preserveUnknownFields', true, 'cannot set to true, set x-kubernetes-preserve-unknown-fields to true in spec.versions[*].schema instead'));
  return out;
}

/** Update: everything create checks, and group and plural may not change. */
export function validateCRDUpdate(crd: CustomResourceDefinition, old: CustomResourceDefinition): StatusCause[] {
  const out = validateCRD(crd);
  const immutable = (path: string, now: unknown, before: unknown) => {
    if (now !== before) out.push(invalid(path, (now ?? '') as Json, 'field is immutable'));
  };
  immutable('spec.group', crd.spec?.group, old.spec?.group);
  immutable('spec.names.plural', crd.spec?.names?.plural, old.spec?.names?.plural);
  return out;
}

function validateCRDName(crd: CustomResourceDefinition): StatusCause[] {
  const name = str(crd.metadata?.name);
  if (!name) return str(crd.metadata?.generateName) ? [] : [required('metadata.name', 'name or generateName is required')];
  const out = validateName(name, 'subdomain');
  const plural = str(crd.spec?.names?.plural);
  const group = str(crd.spec?.group);
  if (name !== `${plural}.${group}`) out.push(invalid('metadata.name', name, 'must be spec.names.plural+"."+spec.group'));
  return out;
}

function validateGroup(group: string): StatusCause[] {
  if (!group) return [required('spec.group')];
  if (group.length > 253) return [invalid('spec.group', group, 'must be no more than 253 characters')];
  if (!DNS1123_SUBDOMAIN.test(group))
    return [
      invalid(
        'spec.group',
        group,
        "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
      ),
    ];
  if (group.split('.').length < 2) return [invalid('spec.group', group, 'should be a domain with at least one dot')];
  return [];
}

/** The parts v1 keeps per version, and whether every version holds the same (then hoisted). */
function hoisted(versions: CustomResourceDefinitionVersion[]) {
  const same = (get: (v: CustomResourceDefinitionVersion) => unknown) =>
    versions.length > 0 && versions.every((v) => jsonEqual((get(v) ?? null) as Json, (get(versions[0] as CustomResourceDefinitionVersion) ?? null) as Json));
  return {
    schema: same((v) => v.schema),
    subresources: same((v) => v.subresources),
    columns: same((v) => (v.additionalPrinterColumns?.length ? v.additionalPrinterColumns : undefined)),
  };
}

function validateSpec(spec: CustomResourceDefinition['spec'], path: string): StatusCause[] {
  const out: StatusCause[] = validateGroup(str(spec.group));
  const scope = str(spec.scope);
  if (!scope) out.push(required(child(path, 'scope')));
  else if (scope !== 'Cluster' && scope !== 'Namespaced') out.push(notSupported(child(path, 'scope'), scope, ['Cluster', 'Namespaced']));
  const versions = list<CustomResourceDefinitionVersion>(spec.versions);
  const top = hoisted(versions);
  const first = versions[0];
  const anyStatus = versions.some((v) => isPlainObject(v.subresources?.status));
  const topSchema = top.schema ? first?.schema : undefined;
  if (!isPlainObject(topSchema?.openAPIV3Schema))
    versions.forEach((v, i) => {
      if (!isPlainObject(v.schema?.openAPIV3Schema)) out.push(required(`${index(child(path, 'versions'), i)}.schema.openAPIV3Schema`, 'schemas are required'));
    });
  let storage = 0;
  const seen = new Set<string>();
  let unique = true;
  versions.forEach((v, i) => {
    const at = index(child(path, 'versions'), i);
    if (v.storage === true) storage++;
    if (seen.has(str(v.name))) unique = false;
    seen.add(str(v.name));
    const problems = dns1035Problems(str(v.name));
    if (problems) out.push(invalid(child(at, 'name'), str(v.name), problems));
    out.push(...validateVersion(v, at, top, isPlainObject(v.subresources?.status) || (top.subresources && anyStatus)));
  });
  if (top.schema && isPlainObject(first?.schema)) out.push(...validateSchema(first.schema, child(path, 'validation'), anyStatus));
  if (top.subresources && first?.subresources) out.push(...validateSubresources(first.subresources, child(path, 'subresources')));
  if (top.columns && first?.additionalPrinterColumns) out.push(...validateColumns(first.additionalPrinterColumns, child(path, 'additionalPrinterColumns')));
  const shown = goVersions(versions);
  if (!unique) out.push(invalid(child(path, 'versions'), shown, 'must contain unique version names'));
  if (storage !== 1) out.push(invalid(child(path, 'versions'), shown, 'must have exactly one version marked as storage version'));
  const names = isPlainObject(spec.names) ? spec.names : ({} as CustomResourceDefinition['spec']['names']);
  for (const n of ['plural', 'singular', 'kind', 'listKind'] as const) if (!str(names[n])) out.push(required(`${path}.names.${n}`));
  out.push(...validateNames(names, child(path, 'names')));
  out.push(...validateConversion(spec.conversion, child(path, 'conversion')));
  return out;
}

function validateVersion(v: CustomResourceDefinitionVersion, at: string, top: ReturnType<typeof hoisted>, statusEnabled: boolean): StatusCause[] {
  const out: StatusCause[] = [];
  if (v.deprecationWarning !== undefined) {
    const w = str(v.deprecationWarning);
    if (v.deprecated !== true) out.push(invalid(child(at, 'deprecationWarning'), w, 'can only be set for deprecated versions'));
    else if (Buffer.byteLength(w) > 256) out.push(invalid(child(at, 'deprecationWarning'), w, 'must be <= 256 characters long'));
    else if (w === '') out.push(invalid(child(at, 'deprecationWarning'), w, 'must not be an empty string'));
  }
  if (!top.schema && isPlainObject(v.schema)) out.push(...validateSchema(v.schema, child(at, 'schema'), statusEnabled));
  if (!top.subresources && v.subresources) out.push(...validateSubresources(v.subresources, child(at, 'subresources')));
  if (!top.columns && v.additionalPrinterColumns) out.push(...validateColumns(v.additionalPrinterColumns, child(at, 'additionalPrinterColumns')));
  return out;
}

function validateConversion(conversion: unknown, path: string): StatusCause[] {
  if (!isPlainObject(conversion)) return [];
  const strategy = str(conversion.strategy);
  if (!strategy) return [required(child(path, 'strategy'))];
  if (strategy === 'Webhook')
    return [forbidden(child(path, 'strategy'), 'conversion strategy "Webhook" is not supported by this server (it converts no custom objects between versions); use "None"')];
  if (strategy !== 'None') return [notSupported(child(path, 'strategy'), strategy, ['None', 'Webhook'])];
  if (conversion.webhook !== undefined && conversion.webhook !== null)
    return [forbidden(child(path, 'webhookClientConfig'), 'should not be set when strategy is not set to Webhook')];
  return [];
}

function validateStoredVersions(stored: unknown, versions: CustomResourceDefinitionVersion[]): StatusCause[] {
  const path = 'status.storedVersions';
  const names = Array.isArray(stored) ? stored.filter((s): s is string => typeof s === 'string') : [];
  const shown = new GoText(`[]string{${names.map(goQuote).join(', ')}}`);
  if (names.length === 0) return [invalid(path, new GoText('[]string(nil)'), 'must have at least one stored version')];
  const out: StatusCause[] = [];
  const left = new Map(names.map((n, i) => [n, i]));
  for (const v of versions) {
    if (v.storage === true && !left.has(v.name)) out.push(invalid(path, shown, `must have the storage version ${v.name}`));
    left.delete(v.name);
  }
  for (const [n, i] of left) out.push(invalid(index(path, i), n, 'must appear in spec.versions'));
  return out;
}

const APPROVAL = 'api-approved.kubernetes.io';

// Groups under k8s.io and kubernetes.io need the API review annotation.
function validateApproval(crd: CustomResourceDefinition): StatusCause[] {
  const group = str(crd.spec?.group);
  const isProtected = group === 'k8s.io' || group.endsWith('.k8s.io') || group === 'kubernetes.io' || group.endsWith('.kubernetes.io');
  if (!isProtected) return [];
  const value = str(crd.metadata?.annotations?.[APPROVAL]);
  const path = `metadata.annotations[${APPROVAL}]`;
  if (!value) return [required(path, `protected groups must have approval annotation "${APPROVAL}", see https://github.com/kubernetes/enhancements/pull/1111`)];
  if (value.startsWith('unapproved')) return [];
  if (/^[a-zA-Z][a-zA-Z0-9+.-]*:\/\/[^/\s]+/.test(value)) return [];
  return [
    invalid(path, value, `protected groups must have approval annotation "${APPROVAL}" with either a URL or a reason starting with "unapproved", see https://github.com/kubernetes/enhancements/pull/1111`),
  ];
}

/** A short %#v of the versions, for the messages that quote them whole. */
function goVersions(versions: CustomResourceDefinitionVersion[]): GoText {
  const one = (v: CustomResourceDefinitionVersion) =>
    `apiextensions.CustomResourceDefinitionVersion{Name:${goQuote(str(v.name))}, Served:${v.served === true}, Storage:${v.storage === true}}`;
  return new GoText(`[]apiextensions.CustomResourceDefinitionVersion{${versions.map(one).join(', ')}}`);
}

