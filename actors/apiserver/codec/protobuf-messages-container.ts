// core/v1 Container and what it is made of (k8s.io/api core/v1 generated.proto): ports,
// environment, resources, mounts, probes, lifecycle hooks and the security context.
import { message } from './protobuf-schema.ts';

export const LocalObjectReference = message('LocalObjectReference', [[1, 'name', 'string']]);

export const ObjectFieldSelector = message('ObjectFieldSelector', [
  [1, 'apiVersion', 'string'],
  [2, 'fieldPath', 'string', 'keep'],
]);

export const ResourceFieldSelector = message('ResourceFieldSelector', [
  [1, 'containerName', 'string'],
  [2, 'resource', 'string', 'keep'],
  [3, 'divisor', 'quantity'],
]);

export const ConfigMapKeySelector = message('ConfigMapKeySelector', [
  [1, 'localObjectReference', LocalObjectReference, 'inline'],
  [2, 'key', 'string', 'keep'],
  [3, 'optional', 'bool', 'keep'],
]);

export const SecretKeySelector = message('SecretKeySelector', [
  [1, 'localObjectReference', LocalObjectReference, 'inline'],
  [2, 'key', 'string', 'keep'],
  [3, 'optional', 'bool', 'keep'],
]);

export const EnvVarSource = message('EnvVarSource', [
  [1, 'fieldRef', ObjectFieldSelector],
  [2, 'resourceFieldRef', ResourceFieldSelector],
  [3, 'configMapKeyRef', ConfigMapKeySelector],
  [4, 'secretKeyRef', SecretKeySelector],
]);

export const EnvVar = message('EnvVar', [
  [1, 'name', 'string', 'keep'],
  [2, 'value', 'string'],
  [3, 'valueFrom', EnvVarSource],
]);

const ConfigMapEnvSource = message('ConfigMapEnvSource', [
  [1, 'localObjectReference', LocalObjectReference, 'inline'],
  [2, 'optional', 'bool', 'keep'],
]);

const SecretEnvSource = message('SecretEnvSource', [
  [1, 'localObjectReference', LocalObjectReference, 'inline'],
  [2, 'optional', 'bool', 'keep'],
]);

export const EnvFromSource = message('EnvFromSource', [
  [1, 'prefix', 'string'],
  [2, 'configMapRef', ConfigMapEnvSource],
  [3, 'secretRef', SecretEnvSource],
]);

export const ContainerPort = message('ContainerPort', [
  [1, 'name', 'string'],
  [2, 'hostPort', 'int32'],
  [3, 'containerPort', 'int32', 'keep'],
  [4, 'protocol', 'string'],
  [5, 'hostIP', 'string'],
]);

export const ResourceRequirements = message('ResourceRequirements', [
  [1, 'limits', 'quantity', 'map'],
  [2, 'requests', 'quantity', 'map'],
]);

export const VolumeMount = message('VolumeMount', [
  [1, 'name', 'string', 'keep'],
  [2, 'readOnly', 'bool'],
  [3, 'mountPath', 'string', 'keep'],
  [4, 'subPath', 'string'],
  [5, 'mountPropagation', 'string', 'keep'],
  [6, 'subPathExpr', 'string'],
  [7, 'recursiveReadOnly', 'string', 'keep'],
]);

const VolumeDevice = message('VolumeDevice', [
  [1, 'name', 'string', 'keep'],
  [2, 'devicePath', 'string', 'keep'],
]);

const ExecAction = message('ExecAction', [[1, 'command', 'string', 'list']]);

const HTTPHeader = message('HTTPHeader', [
  [1, 'name', 'string', 'keep'],
  [2, 'value', 'string', 'keep'],
]);

const HTTPGetAction = message('HTTPGetAction', [
  [1, 'path', 'string'],
  [2, 'port', 'intOrString'],
  [3, 'host', 'string'],
  [4, 'scheme', 'string'],
  [5, 'httpHeaders', HTTPHeader, 'list'],
]);

const TCPSocketAction = message('TCPSocketAction', [
  [1, 'port', 'intOrString'],
  [2, 'host', 'string'],
]);

/** ProbeHandler and LifecycleHandler share these numbers (grpc=4 and sleep=4 are left out). */
const Handler = message('Handler', [
  [1, 'exec', ExecAction],
  [2, 'httpGet', HTTPGetAction],
  [3, 'tcpSocket', TCPSocketAction],
]);

const Probe = message('Probe', [
  [1, 'handler', Handler, 'inline'],
  [2, 'initialDelaySeconds', 'int32'],
  [3, 'timeoutSeconds', 'int32'],
  [4, 'periodSeconds', 'int32'],
  [5, 'successThreshold', 'int32'],
  [6, 'failureThreshold', 'int32'],
  [7, 'terminationGracePeriodSeconds', 'int64', 'keep'],
]);

const Lifecycle = message('Lifecycle', [
  [1, 'postStart', Handler],
  [2, 'preStop', Handler],
]);

const Capabilities = message('Capabilities', [
  [1, 'add', 'string', 'list'],
  [2, 'drop', 'string', 'list'],
]);

export const SELinuxOptions = message('SELinuxOptions', [
  [1, 'user', 'string'],
  [2, 'role', 'string'],
  [3, 'type', 'string'],
  [4, 'level', 'string'],
]);

export const WindowsSecurityContextOptions = message('WindowsSecurityContextOptions', [
  [1, 'gmsaCredentialSpecName', 'string', 'keep'],
  [2, 'gmsaCredentialSpec', 'string', 'keep'],
  [3, 'runAsUserName', 'string', 'keep'],
]);

export const SeccompProfile = message('SeccompProfile', [
  [1, 'type', 'string', 'keep'],
  [2, 'localhostProfile', 'string', 'keep'],
]);

const SecurityContext = message('SecurityContext', [
  [1, 'capabilities', Capabilities],
  [2, 'privileged', 'bool', 'keep'],
  [3, 'seLinuxOptions', SELinuxOptions],
  [4, 'runAsUser', 'int64', 'keep'],
  [5, 'runAsNonRoot', 'bool', 'keep'],
  [6, 'readOnlyRootFilesystem', 'bool', 'keep'],
  [7, 'allowPrivilegeEscalation', 'bool', 'keep'],
  [8, 'runAsGroup', 'int64', 'keep'],
  [9, 'procMount', 'string', 'keep'],
  [10, 'windowsOptions', WindowsSecurityContextOptions],
  [11, 'seccompProfile', SeccompProfile],
]);

/** Also EphemeralContainerCommon, which repeats these numbers. */
export const Container = message('Container', [
  [1, 'name', 'string', 'keep'],
  [2, 'image', 'string'],
  [3, 'command', 'string', 'list'],
  [4, 'args', 'string', 'list'],
  [5, 'workingDir', 'string'],
  [6, 'ports', ContainerPort, 'list'],
  [7, 'env', EnvVar, 'list'],
  [8, 'resources', ResourceRequirements],
  [9, 'volumeMounts', VolumeMount, 'list'],
  [10, 'livenessProbe', Probe],
  [11, 'readinessProbe', Probe],
  [12, 'lifecycle', Lifecycle],
  [13, 'terminationMessagePath', 'string'],
  [14, 'imagePullPolicy', 'string'],
  [15, 'securityContext', SecurityContext],
  [16, 'stdin', 'bool'],
  [17, 'stdinOnce', 'bool'],
  [18, 'tty', 'bool'],
  [19, 'envFrom', EnvFromSource, 'list'],
  [20, 'terminationMessagePolicy', 'string'],
  [21, 'volumeDevices', VolumeDevice, 'list'],
  [22, 'startupProbe', Probe],
  [24, 'restartPolicy', 'string', 'keep'],
]);
