// The field manager of a write: the fieldManager parameter, or the User-Agent's product name.
import { shared } from '../../api/shared-strings.ts';
import { invalid } from '../../api/status.ts';
import type { Query } from '../request.ts';

const MAX_LENGTH = 128;

export function fieldManager(query: Query, userAgent: string | undefined, optionsKind: string, required = false): string {
  const given = query.string('fieldManager');
  if (given !== undefined && given !== '') {
    if (given.length > MAX_LENGTH || !/^[\x20-\x7e]+$/.test(given))
      throw invalid('meta.k8s.io', optionsKind, '', [{ reason: 'FieldValueInvalid', field: 'fieldManager',
        message: `Invalid value: ${JSON.stringify(given)}: must be at most ${MAX_LENGTH} printable characters` }]);
    return shared(given);
  }
  if (required)
    throw invalid('meta.k8s.io', optionsKind, '', [{ reason: 'FieldValueRequired', field: 'fieldManager', message: 'Required value: is required for apply patch' }]);
  const product = (userAgent ?? 'unknown').split('/')[0].slice(0, MAX_LENGTH);
  return shared(product || 'unknown');
}

