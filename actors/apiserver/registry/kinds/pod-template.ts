// PodTemplates: a template's pod spec gets the pod spec defaults. printPodTemplate.
import type { KObject } from '../../../api/types.ts';
import { child } from '../defaults-fields.ts';
import { defaultPodTemplateSpec } from '../defaults-pod.ts';
import { defineKind } from '../kind.ts';
import { column, containerCells, fields, formatLabels, nameColumn, nameOf, type Printer } from '../tables-format.ts';

const printer: Printer = {
  columns: [
    nameColumn,
    column('Containers', 'Names of each container in the template.'),
    column('Images', 'Images referenced by each container in the template.'),
    column('Pod Labels', 'The labels for the pod template.'),
  ],
  cells(o) {
    const [names, images] = containerCells(fields(o.template, 'spec').containers);
    return [nameOf(o), names, images, formatLabels(fields(o.template, 'metadata').labels)];
  },
};

export const podTemplate = defineKind({
  nameRule: 'subdomain',
  hasStatus: false,
  hasGeneration: false,
  printer,
  defaults: (o: KObject) => defaultPodTemplateSpec(child(o, 'template')),
});
