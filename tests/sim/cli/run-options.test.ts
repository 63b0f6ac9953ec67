// `orchsim run` refuses bad arguments with a message naming the option and the rule, before it
// loads or runs anything.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { OptionError } from '../../../actors/api/options/table.ts';
import { runCommand } from '../../../sim/cli/run.ts';

const QUICKSTART = 'sim/scenarios/quickstart.yaml';

async function refusal(argv: string[]): Promise<string> {
  const log: string[] = [];
  try {
    await runCommand(argv, (line) => log.push(line));
  } catch (e) {
    assert.instance(e, OptionError);
    assert.equal(log, [], 'nothing runs before the arguments are checked');
    return (e as Error).message;
  }
  throw new Error(`orchsim run ${argv.join(' ')} was accepted`);
}

test('the heap growth must be a percentage from 0 to 1000', async () => {
  assert.match(await refusal([QUICKSTART, '--heap-growth', '1001']), /--heap-growth: must be a percentage from 0 \(V8's own choice\) to 1000, got 1001/);
  assert.match(await refusal([QUICKSTART, '--heap-growth', '-5']), /--heap-growth: must be a percentage/);
  assert.match(await refusal([QUICKSTART, '--heap-growth', 'lots']), /invalid value "lots" for --heap-growth: must be an integer/);
});

test('a run names one scenario, and pods to explain as NAMESPACE/NAME', async () => {
  assert.match(await refusal([]), /which scenario\?/);
  assert.match(await refusal([QUICKSTART, 'other.yaml']), /unexpected argument "other.yaml": one scenario per run/);
  assert.match(await refusal([QUICKSTART, '--explain', 'web-3']), /name pods as NAMESPACE\/NAME/);
});

test('an inspection log needs a file it can write, and machines that exist', async () => {
  assert.match(await refusal([QUICKSTART, '--inspect-machines', 'zone']), /--inspect-machines chooses what --inspect-log writes: give --inspect-log FILE too/);
  assert.match(await refusal([QUICKSTART, '--inspect-log', '/tmp/x.jsonl', '--inspect-machines', 'zone,nodes']),
    /--inspect-machines: names "nodes", which is not a machine; the machines are apiserver, cluster-autoscaler, component, controller, leader, node, node-health, object, pod, scheduler, zone/);
  assert.match(await refusal([QUICKSTART, '--inspect-log', '/no/such/dir/log.jsonl']), /--inspect-log \/no\/such\/dir\/log.jsonl: cannot write it \(ENOENT\)/);
});

test.run();
