// A watch stream as the server keeps account of it: counted while it runs (registered watchers,
// long-running requests), each event counted and sized as it is written, its request counted when
// it ends (as the real server's instrumentation does, after the handler returns), and ended by the
// server when it stops: what the handler registered to run when its client goes runs then too.
import type { Clock } from '../api/env.ts';
import type { ResourceType } from '../api/resources.ts';
import type { ApiResponse, StreamWriter } from './handlers/response.ts';
import type { ServerLifecycle } from './lifecycle.ts';
import type { ApiServerMetrics } from './metrics.ts';
import type { RequestLabels } from './request-info.ts';

export interface WatchTrackingDeps {
  metrics: ApiServerMetrics;
  lifecycle: ServerLifecycle;
  env: { clock: Clock };
}

/** `r` (a watch's stream response) with its stream wrapped; `startedMs` is when the request arrived. */
export function trackWatch(r: ApiResponse, labels: RequestLabels, type: ResourceType, startedMs: number, deps: WatchTrackingDeps): ApiResponse {
  const inner = r.stream!;
  const kind = { group: type.group, version: type.version, kind: type.kind };
  const { metrics, lifecycle } = deps;
  const stream = (w: StreamWriter) => {
    const closers: (() => void)[] = [];
    let over = false;
    const forget = lifecycle.watchStarted({ end: () => closers.forEach((fn) => fn()) });
    metrics.watching(labels, kind, 1);
    const ended = () => {
      if (over) return;
      over = true;
      forget();
      metrics.watching(labels, kind, -1);
      metrics.request(labels, r.status, deps.env.clock.now() - startedMs);
    };
    w.onClose(ended);
    inner({
      write: (chunk) => {
        metrics.watchEvent(kind, Buffer.byteLength(chunk));
        return w.write(chunk);
      },
      onDrain: (fn) => w.onDrain(fn),
      onClose: (fn) => {
        closers.push(fn);
        w.onClose(fn);
      },
      end: () => {
        ended();
        w.end();
      },
    });
  };
  return { ...r, stream };
}
