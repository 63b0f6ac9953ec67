// An in-process API server and a real HTTPS webhook beside it, for the admission webhook tests:
// `configure` creates a webhook configuration through the API (and fails the test if it is refused).
import * as assert from 'uvu/assert';
import { test } from 'uvu';
import { startServer, type Harness } from './in-process-server.ts';
import { startWebhookServer, type WebhookServer } from './webhook-server.ts';
import { configuration, MUTATING, VALIDATING } from './admission-webhooks.ts';

export interface AdmissionWorld {
  h: Harness;
  hook: WebhookServer;
  configure(kind: 'MutatingWebhookConfiguration' | 'ValidatingWebhookConfiguration', name: string, webhooks: Record<string, unknown>[]): Promise<void>;
}

/** A test against a fresh server and webhook (its certificate also naming `extraName`), the webhook closed after it whatever happens. */
export function withAdmission(name: string, body: (w: AdmissionWorld) => Promise<void>, extraName?: string): void {
  test(name, async () => {
    const h = await startServer();
    const hook = await startWebhookServer(extraName ? { extraName } : {});
    const configure: AdmissionWorld['configure'] = async (kind, configName, webhooks) => {
      const r = await h.post(kind === 'MutatingWebhookConfiguration' ? MUTATING : VALIDATING, configuration(kind, configName, webhooks));
      assert.is(r.status, 201, r.text);
    };
    try {
      await body({ h, hook, configure });
    } finally {
      await hook.close();
    }
  });
}
