// Where a webhook is reached, checked as the real server checks it (apiserver pkg/util/webhook
// validation.go): a URL is https, names a host, and carries no user information, fragment or query;
// a service reference names a service and namespace, a valid port, and a path of DNS-subdomain
// segments. URLs are split as Go's url.Parse splits them, which takes far more than WHATWG URLs do.
import type { StatusCause } from '../../api/status.ts';
import { validateName } from './names.ts';

const FORM = '; desired format: https://host[/path]';

export interface GoUrl {
  scheme: string;
  user?: string;
  host: string;
  path: string;
  rawQuery: string;
  fragment: string;
}

const SCHEME = /^([A-Za-z][A-Za-z0-9+.-]*):/;

/** The parts url.Parse finds in `text`, or the message of its error. */
export function parseGoUrl(text: string): GoUrl | { error: string } {
  const hash = text.indexOf('#');
  const fragment = hash >= 0 ? text.slice(hash + 1) : '';
  let rest = hash >= 0 ? text.slice(0, hash) : text;
  if (rest.startsWith(':')) return { error: `parse ${JSON.stringify(text)}: missing protocol scheme` };
  const scheme = SCHEME.exec(rest)?.[1]?.toLowerCase() ?? '';
  if (scheme) rest = rest.slice(scheme.length + 1);
  const question = rest.indexOf('?');
  const rawQuery = question >= 0 ? rest.slice(question + 1) : '';
  if (question >= 0) rest = rest.slice(0, question);
  if (!scheme && !rest.startsWith('/') && rest.split('/')[0]!.includes(':'))
    return { error: `parse ${JSON.stringify(text)}: first path segment in URL cannot contain colon` };
  if (!rest.startsWith('//')) return { scheme, host: '', path: rest, rawQuery, fragment };
  const slash = rest.indexOf('/', 2);
  const authority = slash >= 0 ? rest.slice(2, slash) : rest.slice(2);
  const at = authority.lastIndexOf('@');
  return { scheme, ...(at >= 0 ? { user: authority.slice(0, at) } : {}), host: authority.slice(at + 1), path: slash >= 0 ? rest.slice(slash) : '', rawQuery, fragment };
}

export function validateWebhookUrl(url: string, field: string): StatusCause[] {
  const u = parseGoUrl(url);
  if ('error' in u) return [{ reason: 'FieldValueRequired', message: `Required value: url must be a valid URL: ${u.error}${FORM}`, field }];
  const causes: StatusCause[] = [];
  const invalid = (shown: string, why: string) => causes.push({ reason: 'FieldValueInvalid', message: `Invalid value: ${JSON.stringify(shown)}: ${why}`, field });
  if (u.scheme !== 'https') invalid(u.scheme, `'https' is the only allowed URL scheme${FORM}`);
  if (u.host === '') invalid(u.host, `host must be specified${FORM}`);
  if (u.user !== undefined) invalid(u.user, 'user information is not permitted in the URL');
  if (u.fragment !== '') invalid(u.fragment, 'fragments are not permitted in the URL');
  if (u.rawQuery !== '') invalid(u.rawQuery, 'query parameters are not permitted in the URL');
  return causes;
}

/** `service` is the reference as decoded: name, namespace, path (optional) and port (defaulted to 443). */
export function validateWebhookService(service: Record<string, unknown>, field: string): StatusCause[] {
  const causes: StatusCause[] = [];
  if (!service.name) causes.push({ reason: 'FieldValueRequired', message: 'Required value: service name is required', field: `${field}.name` });
  if (!service.namespace) causes.push({ reason: 'FieldValueRequired', message: 'Required value: service namespace is required', field: `${field}.namespace` });
  const port = typeof service.port === 'number' ? service.port : 0;
  if (!Number.isInteger(port) || port < 1 || port > 65535)
    causes.push({ reason: 'FieldValueInvalid', message: `Invalid value: ${port}: port is not valid: must be between 1 and 65535, inclusive`, field: `${field}.port` });
  if (typeof service.path === 'string') causes.push(...pathProblems(service.path).map((why) =>
    ({ reason: 'FieldValueInvalid', message: `Invalid value: ${JSON.stringify(service.path)}: ${why}`, field: `${field}.path` })));
  return causes;
}

function pathProblems(path: string): string[] {
  if (path === '' || path === '/') return [];
  if (path === '//') return ['segment[0] may not be empty'];
  const problems = path.startsWith('/') ? [] : ["must start with a '/'"];
  const inner = path.slice(1).replace(/\/$/, '');
  inner.split('/').forEach((step, i) => {
    if (step === '') return void problems.push(`segment[${i}] may not be empty`);
    for (const c of validateName(step, 'subdomain')) problems.push(`segment[${i}]: ${(c.message ?? '').replace(/^Invalid value: "[^"]*": /, '')}`);
  });
  return problems;
}
