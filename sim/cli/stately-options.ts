// `--inspect=stately` and `--inspect-actors GLOBS`, as `orchsim run` and `orchsim serve` take them.
import { string, strings } from '../../actors/api/options/kinds.ts';
import { OptionError, type OptionSpec } from '../../actors/api/options/table.ts';
import { statelyRequest } from '../inspector/stately.ts';

export function statelyOptions<T>(group: string): OptionSpec<T>[] {
  return [
    { name: 'inspect', kind: string, key: 'inspect', group,
      help: 'stately: show the actors --inspect-actors names in the Stately inspector, through @statelyai/inspect (its address, on 127.0.0.1 with a token, is printed; the page frames https://stately.ai/inspect)' },
    { name: 'inspect-actors', kind: strings, key: 'inspectActors', default: [], group,
      help: 'with --inspect=stately, the actors to show: globs over their ids, such as node/node-3,leader/*' },
  ] as OptionSpec<T>[];
}

/** The chosen actors, or undefined; a bad pair of options is an OptionError. */
export function checkedStately(inspect: string | undefined, actors: readonly string[]): ((id: string) => boolean) | undefined {
  try {
    return statelyRequest(inspect, actors);
  } catch (e) {
    throw new OptionError((e as Error).message);
  }
}
