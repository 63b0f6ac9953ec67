// FlowSchemas (flowcontrol.apiserver.k8s.io/v1): matchingPrecedence 1000 by default
// (pkg/apis/flowcontrol/v1 defaults.go); printFlowSchema shows NAME PRIORITYLEVEL
// MATCHINGPRECEDENCE DISTINGUISHERMETHOD AGE MISSINGPL, in matching order (precedence, then name,
// as printFlowSchemaList sorts them).
import type { KObject } from '../../../api/types.ts';
import { child, fill, zero } from '../defaults-fields.ts';
import { validateFlowSchema } from '../flowcontrol-validation.ts';
import { defineKind } from '../kind.ts';
import { age, ageColumn, column, fields, int, list, nameColumn, nameOf, type Printer, text } from '../tables-format.ts';

const DEFAULT_MATCHING_PRECEDENCE = 1000;

function defaults(fs: KObject): void {
  fill(child(fs, 'spec'), [zero('matchingPrecedence', DEFAULT_MATCHING_PRECEDENCE)]);
}

const printer: Printer = {
  columns: [
    nameColumn,
    column('PriorityLevel', '`name` is the name of the priority level configuration being referenced Required.'),
    column('MatchingPrecedence', '`matchingPrecedence` is used to choose among the FlowSchemas that match a given request. The chosen FlowSchema is among those with the numerically lowest (which we take to be logically highest) MatchingPrecedence.  Each MatchingPrecedence value must be ranged in [1,10000]. Note that if the precedence is not specified, it will be set to 1000 as default.'),
    column('DistinguisherMethod', '`distinguisherMethod` defines how to compute the flow distinguisher for requests that match this schema. `nil` specifies that the distinguisher is disabled and thus will always be the empty string.'),
    ageColumn,
    column('MissingPL', 'references a broken or non-existent PriorityLevelConfiguration'),
  ],
  cells(o: KObject, nowMs: number) {
    const spec = fields(o.spec);
    const method = fields(spec, 'distinguisherMethod');
    const dangling = list(fields(o.status).conditions).map((c) => fields(c)).find((c) => c.type === 'Dangling');
    return [nameOf(o), text(fields(spec, 'priorityLevelConfiguration').name), int(spec.matchingPrecedence),
      spec.distinguisherMethod ? text(method.type) : '<none>', age(o, nowMs),
      dangling ? text(dangling.status) : '?'];
  },
  order(a: KObject, b: KObject) {
    const pa = int(fields(a.spec).matchingPrecedence);
    const pb = int(fields(b.spec).matchingPrecedence);
    const na = a.metadata.name ?? '';
    const nb = b.metadata.name ?? '';
    return pa - pb || (na < nb ? -1 : na > nb ? 1 : 0);
  },
};

export const flowSchema = defineKind({ nameRule: 'subdomain', hasStatus: true, hasGeneration: true, validate: validateFlowSchema, defaults, printer });
