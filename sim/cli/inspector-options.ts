// The inspector's options, as `orchsim run` and `orchsim serve` take them: `--ui [--ui-port N]`
// (`what` says what the inspector does for the command) and `--inspect=stately --inspect-actors GLOBS`.
import { bool, int, string, strings } from '../../actors/api/options/kinds.ts';
import { OptionError, type OptionSpec } from '../../actors/api/options/table.ts';
import { statelyRequest } from '../inspector/stately.ts';

export function inspectorOptions<T>(group: string, what: string): OptionSpec<T>[] {
  return [
    { name: 'ui', kind: bool, key: 'ui', default: false, group,
      help: `serve the inspector on 127.0.0.1 (its address, with a token, is printed at start)${what} (see sim/inspector/README.md)` },
    { name: 'ui-port', kind: int, key: 'uiPort', defaultText: 'a free port', group, rule: (v: number) => (v >= 1 && v <= 65535 ? undefined : 'must be a port from 1 to 65535'),
      help: 'with --ui, the inspector\'s port' },
    { name: 'inspect', kind: string, key: 'inspect', group,
      help: 'stately: show the actors --inspect-actors names in the Stately inspector, through @statelyai/inspect (its address, on 127.0.0.1 with a token, is printed; the page frames https://stately.ai/inspect)' },
    { name: 'inspect-actors', kind: strings, key: 'inspectActors', default: [], group,
      help: 'with --inspect=stately, the actors to show: globs over their ids, such as node/node-3,leader/*' },
  ] as OptionSpec<T>[];
}

/**
 * The inspector's options checked together: the actors chosen for the Stately inspector, or
 * undefined; a port without --ui, or a bad --inspect pair, is an OptionError.
 */
export function checkedInspector(o: { ui?: boolean; uiPort?: number; inspect?: string; inspectActors?: readonly string[] }): ((id: string) => boolean) | undefined {
  if (o.uiPort !== undefined && !o.ui) throw new OptionError('--ui-port is the inspector\'s port: give --ui too');
  try {
    return statelyRequest(o.inspect, o.inspectActors ?? []);
  } catch (e) {
    throw new OptionError((e as Error).message);
  }
}
