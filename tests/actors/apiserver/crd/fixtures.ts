// A CronTab CRD as the Kubernetes documentation writes it, grown with the parts the tests need.
import type { CustomResourceDefinition, JSONSchemaProps } from '../../../../actors/apiserver/crd/index.ts';

export function cronTabSchema(): JSONSchemaProps {
  return {
    type: 'object',
    properties: {
      spec: {
        type: 'object',
        properties: {
          cronSpec: { type: 'string', pattern: '^(\\d+|\\*)(/\\d+)?(\\s+(\\d+|\\*)(/\\d+)?){4}$' },
          image: { type: 'string' },
          replicas: { type: 'integer', minimum: 1, maximum: 10, default: 1 },
          ports: {
            type: 'array',
            'x-kubernetes-list-type': 'map',
            'x-kubernetes-list-map-keys': ['name'],
            items: { type: 'object', required: ['name'], properties: { name: { type: 'string' }, port: { type: 'integer' } } },
          },
          tags: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'string' } },
          labels: { type: 'object', additionalProperties: { type: 'string' } },
        },
      },
      status: { type: 'object', properties: { replicas: { type: 'integer' } } },
    },
  };
}

export function cronTab(schema: JSONSchemaProps = cronTabSchema()): CustomResourceDefinition {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'crontabs.stable.example.com' },
    spec: {
      group: 'stable.example.com',
      scope: 'Namespaced',
      names: { plural: 'crontabs', singular: 'crontab', kind: 'CronTab', listKind: 'CronTabList', shortNames: ['ct'] },
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          schema: { openAPIV3Schema: schema },
          subresources: { status: {}, scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas' } },
        },
      ],
      conversion: { strategy: 'None' },
    },
    status: { storedVersions: ['v1'] },
  };
}

/** `{field: message}` lines, compact to compare. */
export const lines = (causes: { field?: string; message?: string }[]) => causes.map((c) => `${c.field}: ${c.message}`);
