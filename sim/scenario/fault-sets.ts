// Fault sets: a fault given as `zone: any` stands for the same fault on each zone in turn, and a
// scenario with such faults for each combination of their zones: its members, each a plain
// scenario. `orchsim plan` runs every member on every seed and answers for the worst, so a plan
// holds whichever zone is lost; `orchsim run` runs the first member.
import type { Fault, Scenario } from './types.ts';
import { zonePartitionSize } from './faults.ts';

export interface Member {
  /** Which zone each set fault hit (`zone-a`, or `zone-a + zone-b` for two sets); empty with no set. */
  label: string;
  scenario: Scenario;
}

/** The scenario's members, in zone order (the scenario itself when it has no fault set). */
export function members(scenario: Scenario): Member[] {
  let out: { labels: string[]; faults: Fault[] }[] = [{ labels: [], faults: [] }];
  for (const f of scenario.faults) {
    const zones = f.zones;
    if (!zones) {
      for (const m of out) m.faults.push(f);
      continue;
    }
    out = out.flatMap((m) => zones.map((zone) => ({ labels: [...m.labels, zone], faults: [...m.faults, concrete(scenario, f, zone)] })));
  }
  return out.map((m) => ({ label: m.labels.join(' + '), scenario: m.labels.length ? { ...scenario, faults: m.faults } : scenario }));
}

/** Whether the scenario has a fault set. */
export const hasFaultSet = (scenario: Scenario): boolean => scenario.faults.some((f) => f.zones);

function concrete(scenario: Scenario, f: Fault, zone: string): Fault {
  const { zones: _set, ...rest } = f;
  return { ...rest, zone, ...(f.kind === 'zonePartition' ? { count: zonePartitionSize(scenario.nodePools, zone) } : {}) };
}
