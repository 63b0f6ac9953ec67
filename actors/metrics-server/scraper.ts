// The metrics server's scrapes of node agents' summaries (actors/nodeagent/summary.ts), on
// demand: nothing is scraped until someone asks for metrics. Times are on the resolution grid
// (`--metric-resolution`, 15s by default): whoever asks within one step of the grid gets the
// summaries of its start, each node scraped once per step, so two `kubectl top` a second apart
// agree and a scrape's cost is paid once. A node that does not answer within the timeout has no
// metrics for that step, as the real server skips a kubelet it cannot reach.
import type { Clock } from '../api/env.ts';
import type { Bus } from '../../transport/bus.ts';
import { payload, valueOf } from '../../transport/payload.ts';
import { summarySubject, type Summary } from '../nodeagent/summary.ts';

export interface ScrapeOptions {
  resolutionMs: number;
  /** How long a node agent has to answer (`--kubelet-request-timeout`'s part). */
  timeoutMs: number;
}

/** What a scrape asks: the summary as it stands at `atMs` (a grid instant not after the agent's now). */
export interface SummaryRequest {
  atMs: number;
}

export class Scraper {
  /** The grid instant the cached summaries are of, and each node's. */
  #atMs = -1;
  #byNode = new Map<string, Promise<Summary | undefined>>();

  constructor(readonly bus: Bus, readonly clock: Clock, readonly options: ScrapeOptions) {}

  /** The grid instant of now: the time the current step's metrics are of. */
  get gridMs(): number {
    const r = this.options.resolutionMs;
    return Math.floor(this.clock.now() / r) * r;
  }

  /** The summaries of `nodes` at the current grid instant, by node name; nodes that did not answer are missing. */
  async summaries(nodes: readonly string[]): Promise<Map<string, Summary>> {
    const atMs = this.gridMs;
    if (atMs !== this.#atMs) {
      this.#atMs = atMs;
      this.#byNode = new Map();
    }
    const asked = nodes.map((n) => {
      let s = this.#byNode.get(n);
      if (!s) this.#byNode.set(n, (s = this.#scrape(n, atMs)));
      return s;
    });
    const answers = await Promise.all(asked);
    const out = new Map<string, Summary>();
    nodes.forEach((n, i) => { const s = answers[i]; if (s) out.set(n, s); });
    return out;
  }

  async #scrape(node: string, atMs: number): Promise<Summary | undefined> {
    try {
      const msg = await this.bus.request(summarySubject(node), payload<SummaryRequest>({ atMs }), this.options.timeoutMs);
      return valueOf<Summary>(msg);
    } catch {
      return undefined; // unreachable or no agent: no metrics for this node
    }
  }
}
