// The CustomResourceDefinition engine: pure functions over plain JSON, no I/O. See README.md.
export type * from './types.ts';
export { validateCRD, validateCRDUpdate } from './crd-validation.ts';
export { defaultSpec, prepareCRDForCreate, prepareCRDForUpdate } from './crd-defaults.ts';
export { computeNames, type NamingResult } from './crd-names.ts';
export { compileVersion, type CustomResourceVersion, type PruneResult } from './version.ts';
export { componentName, customResourceComponents } from './openapi.ts';
export { toStructural, StructuralError, type Structural } from './structural.ts';
export { parseJsonPath, findAll } from './jsonpath.ts';
