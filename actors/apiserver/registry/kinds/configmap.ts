// ConfigMaps: immutable once `immutable` is set. printConfigMap.
import { defineKind } from '../kind.ts';
import { age, ageColumn, column, fields, nameColumn, nameOf, type Printer } from '../tables-format.ts';
import { immutableData, validateConfigMapData } from './config-data.ts';

const printer: Printer = {
  columns: [nameColumn, column('Data', 'Data contains the configuration data.'), ageColumn],
  cells: (o, nowMs) => [nameOf(o), Object.keys(fields(o.data)).length + Object.keys(fields(o.binaryData)).length, age(o, nowMs)],
};

export const configMap = defineKind({ nameRule: 'subdomain', hasStatus: false, hasGeneration: false, printer, validate: validateConfigMapData, validateUpdate: immutableData });
