// get and list, with the resourceVersion tables of seed 000 and paginated lists.
import { fieldMatcher, parseFieldTerms, parseLabelSelector, type Matcher } from '../../api/selectors.ts';
import { badRequest, invalid, StatusError, tooLargeResourceVersion } from '../../api/status.ts';
import type { KObject, ListMeta } from '../../api/types.ts';
import { decodeContinue, encodeContinue } from '../pagination.ts';
import { collectionKey } from '../registry/keys.ts';
import { storedTypeOf } from '../registry/kinds/index.ts';
import { selectableFields } from '../../api/fields.ts';
import type { Registry } from '../registry/registry.ts';
import type { ResourceRequest } from '../request.ts';
import { encodeList, encodeObject, type EncodeContext } from './encode.ts';
import type { ApiResponse } from './response.ts';

/** A resourceVersion as the store's revision; anything but a decimal number is a 400. */
export function parseResourceVersion(rv: string): number {
  if (!/^\d{1,15}$/.test(rv)) throw badRequest(`invalid resource version: "${rv}"`);
  return Number(rv);
}

function listOptionsInvalid(field: string, message: string): StatusError {
  return invalid('meta.k8s.io', 'ListOptions', '', [{ reason: 'FieldValueForbidden', field, message }]);
}

export async function handleGet(r: ResourceRequest, registry: Registry, ctx: EncodeContext): Promise<ApiResponse> {
  const rv = r.query.string('resourceVersion');
  if (rv !== undefined && rv !== '' && rv !== '0') {
    // Not older than: the newest state satisfies it once the store has reached rv.
    const wanted = parseResourceVersion(rv);
    if (wanted > registry.env.store.revision) throw tooLargeResourceVersion(wanted, registry.env.store.revision);
  }
  const obj = await registry.get(r.type, r.namespace, r.name!);
  return encodeObject(ctx, obj);
}

export interface ListPlan {
  revision?: number;
  after?: string;
  limit?: number;
  filter?: Matcher;
  selected: boolean;
}

/** Applies the list table of seed 000 to the query: which revision, where to start, how many. */
export function planList(r: ResourceRequest, registry: Registry): ListPlan {
  const q = r.query;
  const rv = q.string('resourceVersion');
  const match = q.string('resourceVersionMatch');
  const token = q.string('continue');
  const limit = q.int('limit');
  if (limit !== undefined && limit < 0) throw badRequest(`invalid value for limit: must be non-negative`);
  // ListOptions are decoded whole, as real servers do: a malformed field is a 400 even where it
  // means nothing, so `DELETE pods?watch=maybe` deletes nothing instead of every pod.
  for (const name of ['watch', 'allowWatchBookmarks', 'sendInitialEvents']) q.bool(name);
  q.int('timeoutSeconds');
  const labels = parseLabelSelector(q.string('labelSelector'));
  const fields = fieldMatcher(parseFieldTerms(q.string('fieldSelector')), selectableFields(r.type.group, r.type.resource));
  const filter = labels && fields ? (o: KObject) => labels(o) && fields(o) : labels ?? fields;
  const plan: ListPlan = { filter, selected: filter !== undefined, limit: limit && limit > 0 ? limit : undefined };
  const store = registry.env.store;

  if (match !== undefined && match !== '') {
    if (match !== 'Exact' && match !== 'NotOlderThan')
      throw invalid('meta.k8s.io', 'ListOptions', '', [{ reason: 'FieldValueNotSupported', field: 'resourceVersionMatch',
        message: `Unsupported value: "${match}": supported values: "Exact", "NotOlderThan"` }]);
    if (rv === undefined || rv === '') throw listOptionsInvalid('resourceVersionMatch', 'Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided');
    if (token) throw listOptionsInvalid('resourceVersionMatch', 'Forbidden: resourceVersionMatch is forbidden when continue is provided');
    if (match === 'Exact' && rv === '0') throw listOptionsInvalid('resourceVersionMatch', 'Forbidden: resourceVersionMatch "exact" is forbidden for resourceVersion "0"');
  }

  if (token) {
    if (rv !== undefined && rv !== '' && rv !== '0') throw badRequest('specifying resource version is not allowed when using continue');
    const t = decodeContinue(token, collectionKey(registry.env.keyPrefix, storedTypeOf(r.type), r.namespace));
    if (t.revision < store.compactedRevision) {
      // Continue from the next key at a new version: the fresh token the 410 carries.
      const fresh = encodeContinue({ revision: store.revision, after: t.after });
      throw new StatusError(410, 'Expired',
        'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.',
        undefined, { continue: fresh });
    }
    return { ...plan, revision: t.revision, after: t.after };
  }
  if (rv === undefined || rv === '' || rv === '0') return plan; // Most Recent / Any: the newest state
  const wanted = parseResourceVersion(rv);
  if (wanted > store.revision) throw tooLargeResourceVersion(wanted, store.revision);
  const exact = match === 'Exact' || (match !== 'NotOlderThan' && plan.limit !== undefined);
  return exact ? { ...plan, revision: wanted } : plan;
}

export async function handleList(r: ResourceRequest, registry: Registry, ctx: EncodeContext): Promise<ApiResponse> {
  const plan = planList(r, registry);
  const result = await registry.list(r.type, r.namespace, { revision: plan.revision, after: plan.after, limit: plan.limit, filter: plan.filter });
  const meta: ListMeta = { resourceVersion: String(result.revision) };
  if (result.lastKey !== undefined) {
    meta.continue = encodeContinue({ revision: result.revision, after: result.lastKey });
    if (!plan.selected) meta.remainingItemCount = result.remaining;
  }
  return encodeList(ctx, result.items, meta);
}
