// The string rules of apimachinery's util/validation (qualified names, label values, DNS-1123
// labels and subdomains, DNS-1035 labels, ConfigMap keys), each answering the list of problems in the real messages, empty
// when the value is valid. Callers wrap them as their field errors do.

const QUALIFIED_NAME_FMT = '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]';
const QUALIFIED_NAME = new RegExp(`^${QUALIFIED_NAME_FMT}$`);
const QUALIFIED_NAME_MESSAGE = "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const QUALIFIED_NAME_MAX_LENGTH = 63;

const LABEL_VALUE_FMT = `(${QUALIFIED_NAME_FMT})?`;
const LABEL_VALUE = new RegExp(`^${LABEL_VALUE_FMT}$`);
const LABEL_VALUE_MESSAGE = "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const LABEL_VALUE_MAX_LENGTH = 63;

const DNS1123_LABEL_FMT = '[a-z0-9]([-a-z0-9]*[a-z0-9])?';
const DNS1123_LABEL = new RegExp(`^${DNS1123_LABEL_FMT}$`);
const DNS1123_LABEL_MESSAGE = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character";
const DNS1123_LABEL_MAX_LENGTH = 63;
const DNS1123_SUBDOMAIN_FMT = `${DNS1123_LABEL_FMT}(\\.${DNS1123_LABEL_FMT})*`;
const DNS1123_SUBDOMAIN = new RegExp(`^${DNS1123_SUBDOMAIN_FMT}$`);
const DNS1123_SUBDOMAIN_MESSAGE = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";
export const DNS1123_SUBDOMAIN_MAX_LENGTH = 253;

const DNS1035_LABEL_FMT = '[a-z]([-a-z0-9]*[a-z0-9])?';
const DNS1035_LABEL = new RegExp(`^${DNS1035_LABEL_FMT}$`);
const DNS1035_LABEL_MESSAGE = "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character";

const CONFIG_MAP_KEY_FMT = '[-._a-zA-Z0-9]+';
const CONFIG_MAP_KEY = new RegExp(`^${CONFIG_MAP_KEY_FMT}$`);
const CONFIG_MAP_KEY_MESSAGE = "a valid config key must consist of alphanumeric characters, '-', '_' or '.'";

/** `must be no more than 63 characters`. */
export const maxLengthError = (length: number): string => `must be no more than ${length} characters`;

/** A regex failure with its examples, spaced exactly as Go's RegexError spaces them. */
export function regexError(message: string, fmt: string, ...examples: string[]): string {
  if (examples.length === 0) return `${message} (regex used for validation is '${fmt}')`;
  return `${message} (e.g. ${examples.map((e) => `'${e}', `).join(' or ')}regex used for validation is '${fmt}')`;
}

/** Label keys, annotation keys, finalizers: an optional DNS subdomain prefix and '/', then a name. */
export function isQualifiedName(value: string): string[] {
  const errors: string[] = [];
  const parts = value.split('/');
  if (parts.length > 2) {
    return [`a qualified name ${regexError(QUALIFIED_NAME_MESSAGE, QUALIFIED_NAME_FMT, 'MyName', 'my.name', '123-abc')} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`];
  }
  const name = parts.length === 2 ? parts[1]! : parts[0]!;
  if (parts.length === 2) {
    const prefix = parts[0]!;
    if (prefix === '') errors.push('prefix part must be non-empty');
    else errors.push(...isDns1123Subdomain(prefix).map((m) => `prefix part ${m}`));
  }
  if (name === '') errors.push('name part must be non-empty');
  else if (name.length > QUALIFIED_NAME_MAX_LENGTH) errors.push(`name part ${maxLengthError(QUALIFIED_NAME_MAX_LENGTH)}`);
  if (!QUALIFIED_NAME.test(name)) errors.push(`name part ${regexError(QUALIFIED_NAME_MESSAGE, QUALIFIED_NAME_FMT, 'MyName', 'my.name', '123-abc')}`);
  return errors;
}

export function isValidLabelValue(value: string): string[] {
  const errors: string[] = [];
  if (value.length > LABEL_VALUE_MAX_LENGTH) errors.push(maxLengthError(LABEL_VALUE_MAX_LENGTH));
  if (!LABEL_VALUE.test(value)) errors.push(regexError(LABEL_VALUE_MESSAGE, LABEL_VALUE_FMT, 'MyValue', 'my_value', '12345'));
  return errors;
}

/** Namespace names and the like: one DNS label; a valid subdomain is told it has dots. */
export function isDns1123Label(value: string): string[] {
  const errors: string[] = [];
  if (value.length > DNS1123_LABEL_MAX_LENGTH) errors.push(maxLengthError(DNS1123_LABEL_MAX_LENGTH));
  if (!DNS1123_LABEL.test(value)) errors.push(DNS1123_SUBDOMAIN.test(value) ? 'must not contain dots' : regexError(DNS1123_LABEL_MESSAGE, DNS1123_LABEL_FMT, 'my-name', '123-abc'));
  return errors;
}

export function isDns1123Subdomain(value: string): string[] {
  const errors: string[] = [];
  if (value.length > DNS1123_SUBDOMAIN_MAX_LENGTH) errors.push(maxLengthError(DNS1123_SUBDOMAIN_MAX_LENGTH));
  if (!DNS1123_SUBDOMAIN.test(value)) errors.push(regexError(DNS1123_SUBDOMAIN_MESSAGE, DNS1123_SUBDOMAIN_FMT, 'example.com'));
  return errors;
}

/** Versions and the like: a DNS label that starts with a letter. */
export function isDns1035Label(value: string): string[] {
  const errors: string[] = [];
  if (value.length > DNS1123_LABEL_MAX_LENGTH) errors.push(maxLengthError(DNS1123_LABEL_MAX_LENGTH));
  if (!DNS1035_LABEL.test(value)) errors.push(regexError(DNS1035_LABEL_MESSAGE, DNS1035_LABEL_FMT, 'my-name', 'abc-123'));
  return errors;
}

/** A key of a ConfigMap's or Secret's data: a file name that cannot climb out of its directory. */
export function isConfigMapKey(value: string): string[] {
  const errors: string[] = [];
  if (value.length > DNS1123_SUBDOMAIN_MAX_LENGTH) errors.push(maxLengthError(DNS1123_SUBDOMAIN_MAX_LENGTH));
  if (!CONFIG_MAP_KEY.test(value)) errors.push(regexError(CONFIG_MAP_KEY_MESSAGE, CONFIG_MAP_KEY_FMT, 'key.name', 'KEY_NAME', 'key-name'));
  if (value === '.') errors.push("must not be '.'");
  else if (value === '..') errors.push("must not be '..'");
  else if (value.startsWith('..')) errors.push("must not start with '..'");
  return errors;
}
