// The benchmark's pod: about 1.5 KB of JSON, shaped like what a Deployment's controller sends
// (labels, two containers with env, ports, a probe, resources and mounts, a volume, a toleration).
import type { KObject } from '../../actors/api/types.ts';

/** A pod manifest as a client would POST it: no resourceVersion, uid or status. */
export function podManifest(name: string, namespace: string, labels: Record<string, string> = {}): KObject {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace,
      labels: { app: 'bench-web', tier: 'frontend', 'pod-template-hash': '7d4b9c8f6d', ...labels },
      annotations: { 'prometheus.io/scrape': 'true' },
    },
    spec: {
      containers: [
        {
          name: 'web',
          image: 'registry.example.com/bench/web:1.27.3',
          imagePullPolicy: 'IfNotPresent',
          args: ['--listen=:8080', '--metrics=:9102', '--log-level=info'],
          ports: [{ name: 'http', containerPort: 8080, protocol: 'TCP' }, { name: 'metrics', containerPort: 9102, protocol: 'TCP' }],
          env: [
            { name: 'POD_NAME', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } },
            { name: 'POD_NAMESPACE', valueFrom: { fieldRef: { fieldPath: 'metadata.namespace' } } },
            { name: 'CACHE_SIZE_MB', value: '256' },
            { name: 'UPSTREAM_URL', value: 'http://bench-api.default.svc.cluster.local:8080' },
          ],
          resources: { requests: { cpu: '250m', memory: '256Mi' }, limits: { cpu: '1', memory: '512Mi' } },
          readinessProbe: { httpGet: { path: '/healthz', port: 8080 }, periodSeconds: 5, timeoutSeconds: 1 },
          volumeMounts: [{ name: 'config', mountPath: '/etc/web', readOnly: true }],
        },
        {
          name: 'log-shipper',
          image: 'registry.example.com/bench/shipper:0.9.1',
          resources: { requests: { cpu: '50m', memory: '64Mi' }, limits: { cpu: '200m', memory: '128Mi' } },
        },
      ],
      volumes: [{ name: 'config', configMap: { name: 'bench-web-config' } }],
      restartPolicy: 'Always',
      terminationGracePeriodSeconds: 30,
      dnsPolicy: 'ClusterFirst',
      nodeSelector: { 'kubernetes.io/os': 'linux' },
      tolerations: [{ key: 'bench.orchsim.io/dedicated', operator: 'Equal', value: 'web', effect: 'NoSchedule' }],
    },
  };
}
