// Service-account tokens over HTTPS with the real clients: @kubernetes/client-node asks for a
// token (TokenRequest in JSON), kubectl presents it with --token, and is turned away once the
// pod it is bound to is deleted. (`kubectl create token` sends its body as Protobuf, which the
// TokenRequest message must be served in first.)
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import * as k8s from '@kubernetes/client-node';
import { startTestServer } from '../helpers/api-server.ts';
import { keyFiles } from '../helpers/service-account-keys.ts';

test('kubectl --token with a client-node TokenRequest token is served until its bound pod is deleted', async () => {
  const keys = keyFiles();
  const s = await startTestServer(keys.options());
  try {
    const kc = new k8s.KubeConfig();
    kc.loadFromFile(s.kubeconfig);
    const core = kc.makeApiClient(k8s.CoreV1Api);
    await core.createNamespacedServiceAccount({ namespace: 'default', body: { metadata: { name: 'robot' } } });
    await core.createNamespacedPod({ namespace: 'default', body: { metadata: { name: 'web' }, spec: { serviceAccountName: 'robot', containers: [{ name: 'c', image: 'nginx:1.27' }] } } });
    const tr = await core.createNamespacedServiceAccountToken({ namespace: 'default', name: 'robot',
      body: { spec: { audiences: [], boundObjectRef: { apiVersion: 'v1', kind: 'Pod', name: 'web' } } } });
    const token = tr.status!.token;
    const served = await s.kubectl(['--token', token, 'get', 'namespaces', '-o', 'name']);
    assert.is(served.code, 0, served.stderr);
    assert.match(served.stdout, 'namespace/default');
    await core.deleteNamespacedPod({ namespace: 'default', name: 'web' });
    const refused = await s.kubectl(['--token', token, 'get', 'namespaces']);
    assert.is(refused.code, 1);
    assert.match(refused.stderr, 'You must be logged in to the server');
  } finally {
    await s.stop();
  }
});

test.run();
