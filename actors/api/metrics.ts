// Metrics in the Prometheus text format, on the maintained client library (prom-client): each
// component instance keeps its own registry (a simulated cluster holds many components in one
// process), and a component's HTTPS endpoint serves it at /metrics. Durations are measured on the
// component's injected clock, never with the library's wall-clock timers.
import { Registry } from 'prom-client';

export { Counter, Gauge, Histogram, Registry } from 'prom-client';

export const newRegistry = (): Registry => new Registry();

/** The body and content type of a /metrics answer. */
export async function exposition(...registries: Registry[]): Promise<{ contentType: string; body: string }> {
  const merged = registries.length === 1 ? registries[0]! : Registry.merge(registries);
  return { contentType: merged.contentType, body: await merged.metrics() };
}
