// GET ...?watch=true: a stream of watch events, one JSON document per line (or one-row Tables
// for `kubectl get -w`), with the resourceVersion table of seed 000 for watches, selectors,
// bookmarks, and a lifetime from timeoutSeconds or, without it, a random one above
// --min-request-timeout (as real servers spread reconnects).
import type { Random } from '../../api/env.ts';
import { fieldMatcher, parseFieldTerms, parseLabelSelector } from '../../api/selectors.ts';
import { badRequest } from '../../api/status.ts';
import type { KObject } from '../../api/types.ts';
import { collectionKey } from '../registry/keys.ts';
import { storedTypeOf } from '../registry/kinds/index.ts';
import { selectableFields } from '../../api/fields.ts';
import type { Registry } from '../registry/registry.ts';
import type { ResourceRequest } from '../request.ts';
import { Watcher, type WatchEvent } from '../watch/watcher.ts';
import type { WatchHub } from '../watch/hub.ts';
import { watchSubject } from '../watch/subjects.ts';
import { objectJson, outputFor, servedAs, table, type EncodeContext } from './encode.ts';
import { parseResourceVersion } from './read.ts';
import type { ApiResponse, StreamWriter } from './response.ts';

export interface WatchDeps {
  registry: Registry;
  hub: WatchHub;
  random: Random;
  minRequestTimeoutMs: number;
  bookmarkIntervalMs: number;
  /** Events a watcher may fall behind its connection before it is cut off. */
  watcherCapacity: number;
}

// Encode once: the line of an event is the same for every JSON watcher in this process.
const lines = new WeakMap<KObject, Map<string, string>>();

/** `e` about `object` (the same event when it is the same object). */
const withObject = (e: WatchEvent, object: KObject): WatchEvent => (object === e.object ? e : { ...e, object });

function jsonLine(e: WatchEvent): string {
  const obj = e.object as KObject;
  if (e.type === 'ERROR' || e.type === 'BOOKMARK' || !obj.kind) return `{"type":"${e.type}","object":${JSON.stringify(obj)}}\n`;
  let byType = lines.get(obj);
  if (!byType) lines.set(obj, (byType = new Map()));
  let line = byType.get(e.type);
  if (line === undefined) byType.set(e.type, (line = `{"type":"${e.type}","object":${objectJson(obj)}}\n`));
  return line;
}

export function handleWatch(r: ResourceRequest, deps: WatchDeps, ctx: EncodeContext): ApiResponse {
  const q = r.query;
  const out = outputFor({ ...ctx, read: true }, `${r.type.kind}List`);
  if (out.format !== 'json' && out.format !== 'table') throw badRequest('watch is served as JSON (or Table over JSON)');
  const rv = q.string('resourceVersion');
  const start = rv === undefined || rv === '' || rv === '0' ? { from: 'state' as const } : { from: 'after' as const, revision: parseResourceVersion(rv) };
  const terms = parseFieldTerms(q.string('fieldSelector'));
  const labels = parseLabelSelector(q.string('labelSelector'));
  const fields = fieldMatcher(terms, selectableFields(r.type.group, r.type.resource));
  const filter = labels && fields ? (o: KObject) => labels(o) && fields(o) : labels ?? fields;
  const exact = (field: string) => terms.find((t) => t.field === field && !t.negated)?.value;
  const name = r.name ?? exact('metadata.name');
  const nodeName = exact('spec.nodeName');
  const timeoutSeconds = q.int('timeoutSeconds');
  if (timeoutSeconds !== undefined && timeoutSeconds < 0) throw badRequest('timeoutSeconds must not be negative');
  const bookmarks = q.bool('allowWatchBookmarks');
  const stored = storedTypeOf(r.type);
  const prefix = collectionKey(deps.registry.env.keyPrefix, stored, r.namespace);
  const lifetimeMs = timeoutSeconds !== undefined && timeoutSeconds > 0 ? timeoutSeconds * 1000 : deps.minRequestTimeoutMs * (1 + deps.random.next());
  const clock = deps.registry.env.clock;

  const stream = (w: StreamWriter) => {
    let first = true;
    const encode = (stored: WatchEvent): string => {
      const e = stored.type === 'ERROR' || stored.type === 'BOOKMARK' ? stored : withObject(stored, servedAs(r.type, stored.object as KObject));
      if (out.format === 'json' || e.type === 'ERROR' || e.type === 'BOOKMARK') return jsonLine(e);
      // Ages are computed when the event is sent, not when the watch began.
      const t = table({ ...ctx, nowMs: clock.now() }, [e.object as KObject], {}, out.version, first);
      first = false;
      return `{"type":"${e.type}","object":${JSON.stringify(t)}}\n`;
    };
    let ended = false;
    const finish = () => {
      if (ended) return;
      ended = true;
      watcher.stop();
      clock.clearTimeout(timer);
      w.end();
    };
    const watcher = new Watcher({
      subject: watchSubject(stored, { namespace: r.namespace, name, nodeName: r.type.resource === 'pods' && r.type.group === '' ? nodeName : undefined }),
      keyPrefix: prefix,
      // One object's key is known when its namespace is (or it has none): history is then read for that key only.
      ...(name !== undefined && (r.type.scope === 'Cluster' || r.namespace !== undefined) ? { key: `${prefix}${name}` } : {}),
      filter,
      start,
      bookmarks,
      bookmarkIntervalMs: deps.bookmarkIntervalMs,
      capacity: deps.watcherCapacity,
    }, { hub: deps.hub, store: deps.registry.env.store, clock }, {
      send: (e) => w.write(encode(e)),
      onResume: (fn) => w.onDrain(fn),
      end: finish,
    });
    const timer = clock.setTimeout(finish, lifetimeMs);
    w.onClose(finish);
    watcher.start().catch((e) => {
      w.write(jsonLine({ type: 'ERROR', object: { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: String(e), reason: 'InternalError', code: 500 } }));
      finish();
    });
  };
  return { status: 200, headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' }, body: '', stream };
}
