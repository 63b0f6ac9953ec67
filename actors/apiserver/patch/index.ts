// The four patch types of the API server, as pure functions over JSON objects.
export { applyMergePatch } from './merge-patch.ts';
export { applyJsonPatch, MAX_JSON_PATCH_OPERATIONS } from './json-patch.ts';
export { applyStrategicMergePatch, supportsStrategicMerge } from './strategic-merge-patch.ts';
export { applyPatch, recordUpdate, type ApplyOptions, type UpdateOptions } from './apply.ts';
