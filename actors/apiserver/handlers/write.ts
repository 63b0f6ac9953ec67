// create (POST) and update (PUT) of stored kinds, main resource and status.
import { kindOf } from '../registry/kinds/index.ts';
import type { Registry } from '../registry/registry.ts';
import { admissionOptions, type ApiRequest, type ResourceRequest } from '../request.ts';
import { checkObject, dryRun, expectOf, fieldValidation, parseBody, warningHeaders } from './decode.ts';
import { encodeObject, type EncodeContext } from './encode.ts';
import { fieldManager } from './field-manager.ts';
import type { ApiResponse } from './response.ts';

export async function handleCreate(req: ApiRequest, r: ResourceRequest, registry: Registry, ctx: EncodeContext): Promise<ApiResponse> {
  const mode = fieldValidation(r.query, 'CreateOptions');
  const schema = kindOf(r.type).schema;
  const { object, warnings } = checkObject(parseBody(req, !schema), expectOf(r.type), mode, undefined, schema);
  const opts = { dryRun: dryRun(r.query.params.getAll('dryRun'), 'CreateOptions'), fieldManager: fieldManager(r.query, req.headers['user-agent'], 'CreateOptions'),
    ...admissionOptions(req, r, warnings) };
  const created = await registry.create(r.type, r.namespace, object, opts);
  return encodeObject(ctx, created, 201, warningHeaders(warnings));
}

export async function handleUpdate(req: ApiRequest, r: ResourceRequest, registry: Registry, ctx: EncodeContext): Promise<ApiResponse> {
  const mode = fieldValidation(r.query, 'UpdateOptions');
  const schema = kindOf(r.type).schema;
  const decode = () => checkObject(parseBody(req, !schema), expectOf(r.type), mode, undefined, schema);
  const { object, warnings } = decode();
  const opts = {
    dryRun: dryRun(r.query.params.getAll('dryRun'), 'UpdateOptions'),
    fieldManager: fieldManager(r.query, req.headers['user-agent'], 'UpdateOptions'),
    ...(r.subresource ? { subresource: r.subresource } : {}),
    ...admissionOptions(req, r, warnings),
  };
  // The decoded body is this request's own: the first attempt takes it as it is; a retry after a
  // write race decodes it again rather than reuse what the first attempt changed.
  let attempts = 0;
  const result = await registry.update(r.type, r.namespace, r.name!, () => (attempts++ === 0 ? object : decode().object), { ...opts, ownResult: true });
  return encodeObject(ctx, result.object, result.created ? 201 : 200, warningHeaders(warnings));
}
