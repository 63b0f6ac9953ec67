// core/v1 Service and Endpoints (k8s.io/api core/v1 generated.proto), which kubectl create
// service sends as Protobuf. A ServicePort's targetPort is a plain IntOrString in Go, so it is on
// the wire (and in JSON) even when 0; the pointer fields (ipFamilyPolicy, nodeName, ...) keep "".
import { ObjectReference } from './protobuf-messages-core.ts';
import { Condition, ObjectMeta } from './protobuf-messages-meta.ts';
import { message } from './protobuf-schema.ts';

const ServicePort = message('ServicePort', [
  [1, 'name', 'string'],
  [2, 'protocol', 'string'],
  [3, 'port', 'int32', 'keep'],
  [4, 'targetPort', 'intOrString'],
  [5, 'nodePort', 'int32'],
  [6, 'appProtocol', 'string', 'keep'],
]);

const ServiceSpec = message('ServiceSpec', [
  [1, 'ports', ServicePort, 'list'],
  [2, 'selector', 'string', 'map'],
  [3, 'clusterIP', 'string'],
  [4, 'type', 'string'],
  [5, 'externalIPs', 'string', 'list'],
  [7, 'sessionAffinity', 'string'],
  [8, 'loadBalancerIP', 'string'],
  [9, 'loadBalancerSourceRanges', 'string', 'list'],
  [10, 'externalName', 'string'],
  [11, 'externalTrafficPolicy', 'string'],
  [12, 'healthCheckNodePort', 'int32'],
  [13, 'publishNotReadyAddresses', 'bool'],
  [14, 'sessionAffinityConfig', message('SessionAffinityConfig', [
    [1, 'clientIP', message('ClientIPConfig', [[1, 'timeoutSeconds', 'int32', 'keep']])],
  ])],
  [17, 'ipFamilyPolicy', 'string', 'keep'],
  [18, 'clusterIPs', 'string', 'list'],
  [19, 'ipFamilies', 'string', 'list'],
  [20, 'allocateLoadBalancerNodePorts', 'bool', 'keep'],
  [21, 'loadBalancerClass', 'string', 'keep'],
  [22, 'internalTrafficPolicy', 'string', 'keep'],
  [23, 'trafficDistribution', 'string', 'keep'],
]);

const LoadBalancerIngress = message('LoadBalancerIngress', [
  [1, 'ip', 'string'],
  [2, 'hostname', 'string'],
  [3, 'ipMode', 'string', 'keep'],
  [4, 'ports', message('PortStatus', [
    [1, 'port', 'int32', 'keep'],
    [2, 'protocol', 'string', 'keep'],
    [3, 'error', 'string', 'keep'],
  ]), 'list'],
]);

const ServiceStatus = message('ServiceStatus', [
  [1, 'loadBalancer', message('LoadBalancerStatus', [[1, 'ingress', LoadBalancerIngress, 'list']])],
  [2, 'conditions', Condition, 'list'],
]);

export const Service = message('Service', [
  [1, 'metadata', ObjectMeta, 'keep'],
  [2, 'spec', ServiceSpec],
  [3, 'status', ServiceStatus],
]);

const EndpointAddress = message('EndpointAddress', [
  [1, 'ip', 'string', 'keep'],
  [2, 'targetRef', ObjectReference],
  [3, 'hostname', 'string'],
  [4, 'nodeName', 'string', 'keep'],
]);

const EndpointPort = message('EndpointPort', [
  [1, 'name', 'string'],
  [2, 'port', 'int32', 'keep'],
  [3, 'protocol', 'string'],
  [4, 'appProtocol', 'string', 'keep'],
]);

export const Endpoints = message('Endpoints', [
  [1, 'metadata', ObjectMeta, 'keep'],
  [2, 'subsets', message('EndpointSubset', [
    [1, 'addresses', EndpointAddress, 'list'],
    [2, 'notReadyAddresses', EndpointAddress, 'list'],
    [3, 'ports', EndpointPort, 'list'],
  ]), 'list'],
]);
