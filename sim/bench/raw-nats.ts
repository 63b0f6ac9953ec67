// The baseline of a fan-out case: the NATS client alone (@nats-io/transport-node, no orchsim
// code), one connection publishing the same bytes on the same subjects, `count` subscriptions on
// a second connection receiving them, as orchsim's publisher and watching process would.
import { connect, type NatsConnection } from '@nats-io/transport-node';

export interface RawNats {
  publish(subject: string, data: Uint8Array): void;
  close(): Promise<void>;
}

/** `onMessage(i, data)` runs for each message subscription `i` receives. */
export async function rawSubscribers(url: string, count: number, subject: string, onMessage: (i: number, data: Uint8Array) => void, onError: (e: Error) => void): Promise<RawNats> {
  const pub: NatsConnection = await connect({ servers: url, name: 'orchsim-bench-raw-pub' });
  const sub: NatsConnection = await connect({ servers: url, name: 'orchsim-bench-raw-sub' });
  for (let i = 0; i < count; i++) {
    sub.subscribe(subject, {
      callback: (err, m) => {
        if (err) onError(err);
        else onMessage(i, m.data);
      },
    });
  }
  // Every subscription is known to the server before the first publish.
  await sub.flush();
  void sub.closed().then((e) => e && onError(e));
  return {
    publish: (s, data) => pub.publish(s, data),
    close: async () => {
      await sub.close();
      await pub.close();
    },
  };
}
