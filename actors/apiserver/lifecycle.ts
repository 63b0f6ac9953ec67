// Hosts the API server machine (machines/apiserver.ts) and does what its states ask: the readiness
// check, the shutdown filters every request passes first, and the graceful termination.
//
// The two filters, as the real server's WithRetryAfter and WithWaitGroup:
//   - with --shutdown-send-retry-after, once the delay is over every new request but probes and
//     scrapes (/readyz, /livez, /healthz, /metrics) gets 429 "The apiserver is shutting down,
//     please try again later." with Retry-After: 5 and Connection: close, while the server keeps
//     listening until the requests in flight have drained;
//   - without it the listener closes when the delay is over, and a request still arriving on an
//     open connection or over the bus gets 503 "apiserver is shutting down" with Retry-After: 1.
// Requests that are not long-running are counted from the moment they pass until they are
// answered (the wait group); once none is left, watches are ended and the listener is closed.
import type { Actor } from 'xstate';
import type { Clock } from '../api/env.ts';
import type { ActorSystem } from '../system/actor-system.ts';
import { serviceUnavailable, StatusError } from '../api/status.ts';
import { apiServerMachine, apiServerPhase, type ApiServerPhase } from '../../machines/apiserver.ts';
import { statusResponse, type ApiResponse } from './handlers/response.ts';
import { exemptFromShutdown, type RequestInfo } from './request-info.ts';
import { actorIds } from '../system/ids.ts';

/** What the lifecycle needs of the HTTPS listener, when there is one. */
export interface ShutdownListener {
  /** Stops accepting connections; open ones finish their requests, answered with Connection: close. */
  stopListening(): void;
  /** Resolves once no response is being written. */
  whenIdle(): Promise<void>;
  /** Drops every connection and releases the port. */
  close(): Promise<void>;
}

export interface LifecycleOptions {
  shutdownDelayMs?: number;
  shutdownSendRetryAfter: boolean;
}

/** The real WithRetryAfter's wait, in seconds; the wait group's is 1. */
export const SHUTDOWN_RETRY_AFTER_SECONDS = 5;
/** How long, on the server's clock, the last responses may take to reach the wire once watches are ended. */
const FLUSH_GRACE_MS = 2_000;

/** A watch being served, ended by the server when it stops. */
export interface ActiveWatch {
  end(): void;
}

export class ServerLifecycle {
  readonly #actor: Actor<typeof apiServerMachine>;
  #phase: ApiServerPhase = 'Starting';
  /** Requests that are not long-running, from the filter to their answer. */
  #inFlight = 0;
  readonly #watches = new Set<ActiveWatch>();
  #listener: ShutdownListener | undefined;
  #finished: Promise<void> | undefined;
  #resolveFinished: (() => void) | undefined;

  readonly clock: Clock;

  /** Hosts the machine as `apiserver` in `system`, on its clock. */
  constructor(readonly options: LifecycleOptions, system: ActorSystem) {
    this.clock = system.clock;
    const machine = apiServerMachine.provide({
      actions: {
        stopAccepting: () => {
          if (!options.shutdownSendRetryAfter) this.#listener?.stopListening();
          // The machine is mid-transition: look at the count once it has settled.
          queueMicrotask(() => this.#checkDrained());
        },
        stopServing: () => queueMicrotask(() => void this.#stopServing()),
      },
    });
    this.#actor = system.host(machine, {
      id: actorIds.apiserver(), input: { shutdownDelayMs: options.shutdownDelayMs ?? 0, sendRetryAfter: options.shutdownSendRetryAfter },
    });
    this.#actor.subscribe((s) => (this.#phase = apiServerPhase(s.value as string | Record<string, unknown>)));
    this.#actor.start();
  }

  get phase(): ApiServerPhase {
    return this.#phase;
  }

  /** The server has started: /readyz passes. */
  started(): void {
    this.#actor.send({ type: 'STARTED' });
  }

  /** The readiness check `shutdown`: fails from the moment termination begins. */
  shutdownCheck(): string | undefined {
    return this.#phase === 'Starting' || this.#phase === 'Ready' ? undefined : 'process is shutting down';
  }

  /**
   * The shutdown filters: an answer turning the request away, or undefined to serve it. A request
   * let through that is not long-running must be reported with `done()` once answered.
   */
  admit(info: RequestInfo): ApiResponse | undefined {
    const accepting = this.#phase !== 'Draining/NotAccepting' && this.#phase !== 'Stopping' && this.#phase !== 'Stopped';
    if (!accepting && !exemptFromShutdown(info)) {
      if (this.options.shutdownSendRetryAfter) return shuttingDown429();
      // The real wait group writes the Retry-After header only, not details.retryAfterSeconds.
      if (!info.longRunning) return statusResponse(serviceUnavailable('apiserver is shutting down').status, { 'retry-after': '1' });
    }
    if (!info.longRunning) this.#inFlight++;
    return undefined;
  }

  done(): void {
    this.#inFlight--;
    if (this.#inFlight === 0) this.#checkDrained();
  }

  /** Requests that are not long-running, being served now. */
  get inFlight(): number {
    return this.#inFlight;
  }

  /** Registers a watch being served; returns the way to forget it when it ends on its own. */
  watchStarted(w: ActiveWatch): () => void {
    this.#watches.add(w);
    return () => this.#watches.delete(w);
  }

  get watches(): number {
    return this.#watches.size;
  }

  /**
   * Graceful termination: /readyz fails at once, requests are served for the delay, then new ones
   * are turned away while those in flight finish; then watches end and the listener closes.
   * Resolves once all of that is done. Calling it again returns the same promise.
   */
  shutdown(listener?: ShutdownListener): Promise<void> {
    if (this.#finished) return this.#finished;
    this.#listener = listener;
    this.#finished = new Promise((resolve) => (this.#resolveFinished = resolve));
    this.#actor.send({ type: 'STOP' });
    return this.#finished;
  }

  /** Stops the machine and its timers at once (a hard stop, no draining); a shutdown under way resolves. */
  halt(): void {
    this.#actor.stop();
    this.#resolveFinished?.();
  }

  #checkDrained(): void {
    if (this.#phase === 'Draining/NotAccepting' && this.#inFlight === 0) this.#actor.send({ type: 'DRAINED' });
  }

  async #stopServing(): Promise<void> {
    for (const w of [...this.#watches]) w.end();
    const listener = this.#listener;
    if (listener) {
      await new Promise<void>((resolve) => {
        const timer = this.clock.setTimeout(resolve, FLUSH_GRACE_MS);
        void listener.whenIdle().then(() => {
          this.clock.clearTimeout(timer);
          resolve();
        });
      });
      await listener.close();
    }
    this.#actor.send({ type: 'STOPPED' });
    this.#resolveFinished?.();
  }
}

/** The real WithRetryAfter's answer, as a Status (the real one writes the message as plain text). */
function shuttingDown429(): ApiResponse {
  const status = new StatusError(429, 'TooManyRequests', 'The apiserver is shutting down, please try again later.',
    { retryAfterSeconds: SHUTDOWN_RETRY_AFTER_SECONDS }).status;
  return statusResponse(status, { connection: 'close' });
}
