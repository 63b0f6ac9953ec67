// How the controllers that keep EndpointSlices (endpointslice, endpointslice-mirroring) write and
// delete them: through the controller's own client, remembering each write (written-versions.ts)
// so that a sync on a cache that has not caught up does nothing, and passing over a write that
// lost a race (the racing write's event brings the key back) or whose namespace is going.
import { isAlreadyExists, isConflict, isForbidden, isNotFound } from '../../api/status.ts';
import type { KObject } from '../../api/types.ts';
import { cacheKey } from '../../client/cache.ts';
import type { ApiClient } from '../../client/client.ts';
import { WrittenVersions } from './written-versions.ts';
import { ENDPOINT_SLICES } from '../../api/model/discovery.ts';

export class SliceWrites {
  readonly written = new WrittenVersions();

  constructor(readonly client: ApiClient) {}

  async write(slice: KObject, create: boolean): Promise<void> {
    try {
      const written = create ? await this.client.create(ENDPOINT_SLICES, slice) : await this.client.update(ENDPOINT_SLICES, slice);
      this.written.wrote(cacheKey(written), written);
    } catch (e) {
      if (!(isAlreadyExists(e) || isConflict(e) || isNotFound(e) || isForbidden(e))) throw e;
    }
  }

  async delete(slice: KObject): Promise<void> {
    try {
      await this.client.delete(ENDPOINT_SLICES, slice.metadata.namespace, slice.metadata.name!);
      this.written.deleted(cacheKey(slice), slice);
    } catch (e) {
      if (!isNotFound(e)) throw e;
    }
  }
}
