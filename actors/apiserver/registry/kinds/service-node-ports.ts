// One write's node ports, as the real PortAllocationOperation keeps them: ports are taken at once
// and given back if the write fails; ports the write gives up are given back only once it is
// stored. A dry run takes nothing: it checks a requested port against the taken ones and answers
// a made-up port for one it would pick (32769, 32770, ...), as the real one does.
import { internal, invalid, type StatusCause } from '../../../api/status.ts';
import type { Reservation } from '../allocator.ts';
import { PORT_ALLOCATED, type PortRange } from '../service-ranges.ts';
import { allocatesNodePorts, needsHealthCheck, needsNodePorts, nodePortsOf, type ServiceSpec } from './service-fields.ts';

/** The made-up port a dry run's first pick answers is one above this. */
const DRY_RUN_PORT = 32768;

export class NodePortOperation implements Reservation {
  readonly #taken: number[] = [];
  readonly #givenUp: number[] = [];

  constructor(readonly range: PortRange, readonly dryRun: boolean, readonly serviceName: string) {}

  /** Takes `port`; the allocator's message when it cannot. */
  allocate(port: number): string | undefined {
    if (this.dryRun) {
      if (this.range.has(port) || this.#taken.includes(port)) return PORT_ALLOCATED;
      this.#taken.push(port);
      return undefined;
    }
    const error = this.range.allocate(port);
    if (error === undefined) this.#taken.push(port);
    return error;
  }

  allocateNext(what: string): number {
    if (this.dryRun) {
      const port = (this.#taken.length ? Math.max(...this.#taken) : DRY_RUN_PORT) + 1;
      this.#taken.push(port);
      return port;
    }
    const port = this.range.allocateNext();
    if (port === undefined) throw internal(`failed to allocate a ${what}: range is full`);
    this.#taken.push(port);
    return port;
  }

  giveUp(port: number): void {
    this.#givenUp.push(port);
  }

  commit(): void {
    if (!this.dryRun) for (const port of this.#givenUp) this.range.release(port);
  }

  revert(): void {
    if (!this.dryRun) for (const port of this.#taken) this.range.release(port);
  }

  refuse(causes: StatusCause[]): never {
    this.revert();
    throw invalid('', 'Service', this.serviceName, causes);
  }
}

const portCause = (i: number, port: number, error: string): StatusCause =>
  ({ reason: 'FieldValueInvalid', field: `spec.ports[${i}].nodePort`, message: `Invalid value: ${port}: ${error}` });

/** A new Service's node ports (initNodePorts): ports sharing a number share a node port; asked-for ones are taken, the rest picked. */
export function allocateNodePorts(spec: ServiceSpec, op: NodePortOperation): void {
  if (needsNodePorts(spec)) {
    const byPort = new Map<number, number>();
    for (const [i, p] of (spec.ports ?? []).entries()) {
      if (!p.nodePort && !allocatesNodePorts(spec)) continue;
      const port = p.port ?? 0;
      const shared = byPort.get(port);
      if (shared === undefined) {
        const requested = (spec.ports ?? []).find((q) => q.port === port && q.nodePort)?.nodePort;
        const error = requested ? op.allocate(requested) : undefined;
        if (error) op.refuse([portCause(i, requested!, error)]);
        p.nodePort = requested ?? op.allocateNext('nodePort');
        byPort.set(port, p.nodePort);
      } else if (p.nodePort !== shared) {
        if (!p.nodePort) p.nodePort = shared;
        else {
          const error = op.allocate(p.nodePort);
          if (error) op.refuse([portCause(i, p.nodePort, error)]);
        }
      }
    }
  }
  if (needsHealthCheck(spec)) allocateHealthCheck(spec, op);
}

function allocateHealthCheck(spec: ServiceSpec, op: NodePortOperation): void {
  const asked = spec.healthCheckNodePort ?? 0;
  if (asked === 0) {
    spec.healthCheckNodePort = op.allocateNext('HealthCheck NodePort 0');
    return;
  }
  const error = op.allocate(asked);
  if (error) {
    op.revert();
    throw internal(`failed to allocate requested HealthCheck NodePort ${asked}: ${error}`);
  }
}

/** An update's node ports (txnUpdateNodePorts): what a type change gives up, what new ports take, the health-check port. */
export function updateNodePorts(spec: ServiceSpec, old: ServiceSpec, op: NodePortOperation): void {
  if (needsNodePorts(old) && (spec.type === 'ExternalName' || spec.type === 'ClusterIP')) for (const port of nodePortsOf(old)) op.giveUp(port);
  if (needsNodePorts(spec)) {
    const oldPorts = nodePortsOf(old);
    const taken = new Set<number>();
    const seen = new Set<string>();
    for (const [i, p] of (spec.ports ?? []).entries()) {
      if (!p.nodePort && !allocatesNodePorts(spec)) continue;
      if (!p.nodePort) p.nodePort = op.allocateNext('nodePort');
      else if (!oldPorts.includes(p.nodePort) && !taken.has(p.nodePort)) {
        const error = op.allocate(p.nodePort);
        if (error) op.refuse([portCause(i, p.nodePort, error)]);
        taken.add(p.nodePort);
      }
      const key = `${p.protocol} ${p.nodePort}`;
      if (seen.has(key)) {
        op.revert();
        throw internal(`duplicate nodePort: {${key}}`);
      }
      seen.add(key);
    }
    const kept = nodePortsOf(spec);
    for (const port of oldPorts) if (!kept.includes(port)) op.giveUp(port);
  }
  const needed = needsHealthCheck(old), needs = needsHealthCheck(spec);
  if (!needed && needs) allocateHealthCheck(spec, op);
  if (needed && !needs && old.healthCheckNodePort) op.giveUp(old.healthCheckNodePort);
}
