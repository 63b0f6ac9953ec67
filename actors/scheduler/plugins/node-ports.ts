// NodePorts: a pod's host ports must be free on the node. Ports are `protocol/hostIP/hostPort`; a
// wildcard address (0.0.0.0) conflicts with the same protocol and port on any address, and a
// specific address with itself and with the wildcard, as the real HostPortInfo decides.
import type { CycleState, FilterPlugin, PodInfo } from '../framework.ts';

const NAME = 'NodePorts';
const PRE_FILTER = `PreFilter${NAME}`;
const ANY_IP = '0.0.0.0';

interface WantedPort {
  key: string;
  wildcard: boolean;
  /** `protocol/`: with `suffix`, recognises the same protocol and port on any address. */
  prefix: string;
  /** `/hostPort`. */
  suffix: string;
  /** `protocol/0.0.0.0/hostPort`. */
  wildcardKey: string;
}

function wantedPorts(pod: PodInfo): WantedPort[] {
  return pod.hostPorts.map((key) => {
    const first = key.indexOf('/');
    const last = key.lastIndexOf('/');
    const protocol = key.slice(0, first);
    const port = key.slice(last + 1);
    return {
      key,
      wildcard: key.slice(first + 1, last) === ANY_IP,
      prefix: `${protocol}/`,
      suffix: `/${port}`,
      wildcardKey: `${protocol}/${ANY_IP}/${port}`,
    };
  });
}

function portsOf(state: CycleState, pod: PodInfo): WantedPort[] {
  let ports = state.get(PRE_FILTER) as WantedPort[] | undefined;
  if (!ports) state.set(PRE_FILTER, (ports = wantedPorts(pod)));
  return ports;
}

function conflicts(want: WantedPort, used: ReadonlySet<string>): boolean {
  if (!want.wildcard) return used.has(want.key) || used.has(want.wildcardKey);
  for (const key of used) if (key.startsWith(want.prefix) && key.endsWith(want.suffix)) return true;
  return false;
}

export const nodePorts: FilterPlugin = {
  name: NAME,
  preFilter(state, pod) {
    if (pod.hostPorts.length === 0) return { skip: true };
    state.set(PRE_FILTER, wantedPorts(pod));
  },
  filter(state, pod, node) {
    const ports = portsOf(state, pod);
    if (ports.length === 0 || node.usedPorts.size === 0) return undefined;
    for (let i = 0; i < ports.length; i++) {
      if (conflicts(ports[i]!, node.usedPorts)) return "node(s) didn't have free ports for the requested pod ports";
    }
    return undefined;
  },
};
