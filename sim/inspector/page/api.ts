// The inspector's JSON API as the page reads it (the cookie set by the printed address carries the token).

export interface Summary {
  timeMs: number;
  actors: number;
  machines: Record<string, Record<string, number>>;
}
export interface ActorRow { id: string; machine: string; state: string; node?: string }
export interface ActorPage { items: ActorRow[]; continue?: string }
export interface InspectionRecord { t: number; seq: number; kind: 'actor' | 'transition' | 'stop'; id: string; machine: string; event?: string; sender?: string; from?: string; to?: string }
export type SequenceRecord =
  | { t: number; seq: number; kind: 'actor'; id: string; machine: string; to: string }
  | { t: number; seq: number; kind: 'transition'; id: string; machine: string; event: string; sender?: string; from: string; to: string }
  | { t: number; seq: number; kind: 'stop'; id: string; machine: string }
  | { t: number; kind: 'send'; id: string; machine: string; target: string; event: string };
export interface SequenceAnswer { timeMs: number; actors: string[]; from: number; to: number; records: SequenceRecord[]; omitted: number; keptSince?: number }
export interface ActorDetail { timeMs: number; id: string; machine: string; state: string; context: unknown; delays: Record<string, number>; records: InspectionRecord[] }
export interface StateDefinition {
  path: string;
  key: string;
  type: 'atomic' | 'compound' | 'parallel' | 'final' | 'history';
  initial?: string;
  states: StateDefinition[];
  transitions: { event: string; delay?: string | number; guard?: string; targets: string[]; actions: string[] }[];
  invoke: string[];
  entry: string[];
  exit: string[];
}
export interface MachineDefinition { id: string; root: StateDefinition }

export class ApiError extends Error {
  constructor(readonly status: number, message: string) {
    super(message);
  }
}

export interface NodeAgentState { name: string; agent: 'running' | 'stopped' }

/** GETs `path`, or sends `body` with `method` (POST unless said). */
export async function api<T>(path: string, body?: unknown, method = 'POST'): Promise<T> {
  const r = await fetch(`/inspect/api/${path}`, body === undefined ? { credentials: 'same-origin' }
    : { method, credentials: 'same-origin', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
  const answer = await r.json().catch(() => ({ message: `${r.status} ${r.statusText}` }));
  if (!r.ok) throw new ApiError(r.status, (answer as { message?: string }).message ?? `${r.status}`);
  return answer as T;
}
