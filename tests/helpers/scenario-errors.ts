// The error a scenario's text is refused with, for tests of the loader's rules.
import { parseScenario, ScenarioError } from '../../sim/scenario/load.ts';

/** The message of the ScenarioError `text` (a scenario named `scenario`) is refused with; throws when it loads. */
export function scenarioError(text: string): string {
  try {
    parseScenario(text, { name: 'scenario', dir: '.' });
  } catch (e) {
    if (e instanceof ScenarioError) return e.message;
    throw e;
  }
  throw new Error(`loaded without error:\n${text}`);
}
