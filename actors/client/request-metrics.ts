// The client side of every component's /metrics, as client-go reports it: each request to the API
// server counted by status code and method (`rest_client_requests_total`) and timed by verb
// (`rest_client_request_duration_seconds`) on the component's clock, from the moment it leaves the
// client's rate limiter to its answer. The requests are read where they leave, on the bus the
// component's clients share (`meteredBus`): the typed client sends each one as an `orch.api.request`
// carrying its method, and the reply carries the status, so the client itself needs no hook.
//
// The `host` label names where the requests go: the bus subject, unless the component says more
// (a command that reaches the API server over NATS may give the server's address).
import type { Clock } from '../api/env.ts';
import { CounterSeries, HistogramSeries } from '../api/metric-series.ts';
import { Counter, Histogram, type Registry } from '../api/metrics.ts';
import { REQUEST_SUBJECT, type WireResponse } from '../apiserver/bus-endpoint.ts';
import type { ApiRequest } from '../apiserver/request.ts';
import { Deferred, type Body, type Bus, type Message } from '../../transport/bus.ts';
import { valueOf } from '../../transport/payload.ts';
import { perRegistry } from './per-registry.ts';

/** client-go's buckets for request latency, in seconds. */
const LATENCY_BUCKETS = [0.005, 0.025, 0.1, 0.25, 0.5, 1, 2, 4, 8, 15, 30, 60];

const REQUEST_LABELS = ['code', 'method', 'host'] as const;
const LATENCY_LABELS = ['verb', 'host'] as const;

export const restClientMetrics = perRegistry((registry: Registry) => {
  const requests = new Counter({
    name: 'rest_client_requests_total', help: 'Number of HTTP requests, partitioned by status code, method, and host.',
    labelNames: REQUEST_LABELS, registers: [registry],
  });
  const latency = new Histogram({
    name: 'rest_client_request_duration_seconds', help: 'Request latency in seconds. Broken down by verb, and host.',
    labelNames: LATENCY_LABELS, buckets: LATENCY_BUCKETS, registers: [registry],
  });
  // Every request adds to both: by label values, without prom-client hashing the labels each time.
  return { requests, latency, requestSeries: new CounterSeries(requests, REQUEST_LABELS), latencySeries: new HistogramSeries(latency, LATENCY_LABELS) };
});

/**
 * `bus`, with every API request sent through it counted and timed in `registry`. Everything else
 * passes straight through. The caller gets the very promise the bus returned: the observation is a
 * reaction of its own beside the caller's, so nobody resumes a turn later than without metrics
 * (under the simulator, a shifted turn would reorder writes and change the run).
 */
export function meteredBus(bus: Bus, clock: Clock, registry: Registry, host: string = REQUEST_SUBJECT): Bus {
  const m = restClientMetrics(registry);
  const request = (subject: string, data: Body, timeoutMs: number): Promise<Message> => {
    const reply = bus.request(subject, data, timeoutMs);
    if (subject !== REQUEST_SUBJECT || !(data instanceof Deferred)) return reply;
    const method = (data.value as ApiRequest).method;
    const startMs = clock.now();
    const observe = (code: string) => {
      m.requestSeries.inc([code, method, host]);
      m.latencySeries.observe([method, host], (clock.now() - startMs) / 1000);
    };
    reply.then((msg) => {
      let code = '<error>';
      try {
        code = String(valueOf<WireResponse>(msg).status);
      } catch {
        // Undecodable: the client will say so; here it counts as a request without an answer.
      }
      observe(code);
    }, () => observe('<error>'));
    return reply;
  };
  return {
    publish: (subject, data, reply) => bus.publish(subject, data, reply),
    subscribe: (subject, handler, opts) => bus.subscribe(subject, handler, opts),
    request,
    ...(bus.hasSubscribers ? { hasSubscribers: (subject: string) => bus.hasSubscribers!(subject) } : {}),
    flush: () => bus.flush(),
    drain: () => bus.drain(),
    close: () => bus.close(),
  };
}
