// ServiceAccounts. printServiceAccount.
import { defineKind } from '../kind.ts';
import { age, ageColumn, column, list, nameColumn, nameOf, type Printer } from '../tables-format.ts';

const printer: Printer = {
  columns: [nameColumn, column('Secrets', 'Secrets is a list of the secrets in the same namespace that pods running using this ServiceAccount are allowed to use.'), ageColumn],
  cells: (o, nowMs) => [nameOf(o), list(o.secrets).length, age(o, nowMs)],
};

export const serviceAccount = defineKind({ nameRule: 'subdomain', hasStatus: false, hasGeneration: false, printer });
