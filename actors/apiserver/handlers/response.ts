// What a handler answers: status, headers and bytes (or a stream, for watches later).
import type { Status } from '../../api/status.ts';

/** A long-running response's output (watch): chunks written as they come, with backpressure. */
export interface StreamWriter {
  /** False when the connection's buffer is full: wait for onDrain before writing more. */
  write(chunk: string): boolean;
  onDrain(fn: () => void): void;
  /** The client went away. */
  onClose(fn: () => void): void;
  end(): void;
}

export interface ApiResponse {
  status: number;
  headers: Record<string, string | string[]>;
  body: Uint8Array | string;
  /**
   * What `body` is the JSON of, when it is an object the store holds (never to be modified): a
   * client in this process takes it rather than parse the body.
   */
  value?: unknown;
  /** Set for streams: called once the head is sent; `body` is then ignored. */
  stream?: (w: StreamWriter) => void;
}

export function jsonResponse(status: number, value: unknown, headers: Record<string, string | string[]> = {}, pretty = false): ApiResponse {
  return { status, headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(value, null, pretty ? 2 : undefined) + (pretty ? '\n' : '') };
}

export function textResponse(status: number, text: string): ApiResponse {
  return { status, headers: { 'content-type': 'text/plain; charset=utf-8', 'x-content-type-options': 'nosniff' }, body: text };
}

export function statusResponse(status: Status, headers: Record<string, string | string[]> = {}): ApiResponse {
  const extra: Record<string, string | string[]> = { ...headers };
  const retry = status.details?.retryAfterSeconds;
  if (retry !== undefined && (status.code === 429 || (status.code ?? 0) >= 500)) extra['retry-after'] = String(retry);
  return jsonResponse(status.code ?? 200, status, extra);
}
