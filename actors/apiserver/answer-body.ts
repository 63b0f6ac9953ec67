// The body of an answer from a service this server calls (an authorization or admission webhook),
// read whole but bounded: a service that answers without end must not exhaust the server's memory.
import type { IncomingMessage } from 'node:http';

/** The answer's body as text; rejects beyond `maxBytes`, or when the answer is cut short. */
export function readAnswer(res: IncomingMessage, maxBytes: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    res.on('data', (c: Buffer) => {
      size += c.length;
      if (size > maxBytes) res.destroy(new Error(`the answer is larger than ${maxBytes} bytes`));
      else chunks.push(c);
    });
    res.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    res.on('error', reject);
    res.on('aborted', () => reject(new Error('the answer was cut short')));
  });
}
