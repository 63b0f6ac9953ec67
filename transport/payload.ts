// Bodies in the codec's format: made as a Deferred, so a value that stays in the process is never
// encoded, and read back as the value itself or, from another process, decoded.
import { Deferred, type Message } from './bus.ts';
import { decode, encode } from './codec.ts';

export const payload = <T>(value: T): Deferred<T> => new Deferred(value, encode);

export const valueOf = <T>(msg: Message): T => (msg.value !== undefined ? (msg.value as T) : decode<T>(msg.data));
