// An API server alone, as envtest runs one for controller tests: no controller manager makes the
// `default` ServiceAccount of each namespace, so the ServiceAccount admission plugin, which needs
// that account to exist before a pod is admitted (and would wait for it), is off. Tests of that
// plugin, and servers that run beside a controller manager, keep it.
import { apiServerOptions, type ApiServerOptions } from '../../actors/apiserver/options.ts';

export function bareServerOptions(given: Partial<ApiServerOptions> = {}): ApiServerOptions {
  return apiServerOptions({ ...given, disableAdmissionPlugins: [...(given.disableAdmissionPlugins ?? []), 'ServiceAccount'] });
}
