// discovery.k8s.io/v1 EndpointSlice as Protobuf (k8s.io/api discovery/v1 generated.proto). Its
// pointer fields (an endpoint's conditions, a port's name, protocol and number) keep their zero
// values; an endpoint's addresses and a slice's endpoints are never omitted in JSON.
import { ObjectReference } from './protobuf-messages-core.ts';
import { ObjectMeta } from './protobuf-messages-meta.ts';
import { message } from './protobuf-schema.ts';

const Endpoint = message('Endpoint', [
  [1, 'addresses', 'string', 'list', 'keep'],
  [2, 'conditions', message('EndpointConditions', [
    [1, 'ready', 'bool', 'keep'],
    [2, 'serving', 'bool', 'keep'],
    [3, 'terminating', 'bool', 'keep'],
  ]), 'keep'],
  [3, 'hostname', 'string', 'keep'],
  [4, 'targetRef', ObjectReference],
  [5, 'deprecatedTopology', 'string', 'map'],
  [6, 'nodeName', 'string', 'keep'],
  [7, 'zone', 'string', 'keep'],
  [8, 'hints', message('EndpointHints', [[1, 'forZones', message('ForZone', [[1, 'name', 'string', 'keep']]), 'list']])],
]);

const EndpointPort = message('EndpointPort', [
  [1, 'name', 'string', 'keep'],
  [2, 'protocol', 'string', 'keep'],
  [3, 'port', 'int32', 'keep'],
  [4, 'appProtocol', 'string', 'keep'],
]);

export const EndpointSlice = message('EndpointSlice', [
  [1, 'metadata', ObjectMeta, 'keep'],
  [2, 'endpoints', Endpoint, 'list', 'keep'],
  [3, 'ports', EndpointPort, 'list'],
  [4, 'addressType', 'string', 'keep'],
]);
