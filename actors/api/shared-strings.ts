// One copy of each string the API server stores over and over. Every stored version of every
// object keeps its own strings: a lease's API version and namespace, a pod's condition types and
// image, a managedFields entry's manager. Cut from request bodies and URLs they are fresh strings
// each time, and V8 makes a cut of 13 characters or more a view that keeps its whole source alive
// (a lease's renewTime held its 600-byte request body).

/** Strings longer than this rarely repeat (annotations, certificates): they are only copied. */
const SHARED_MAX_LENGTH = 64;
/** How many distinct strings are kept before the table starts over. */
const SHARED_MAX_ENTRIES = 1 << 16;
let table = new Map<string, string>();

/** The one copy of `s`, holding on to nothing else. */
export function shared(s: string): string {
  if (s.length > SHARED_MAX_LENGTH) return ownCopy(s);
  const seen = table.get(s);
  if (seen !== undefined) return seen;
  // Shorter cuts are already copies.
  const own = s.length >= 13 ? ownCopy(s) : s;
  if (table.size >= SHARED_MAX_ENTRIES) table = new Map();
  table.set(own, own);
  return own;
}

/** `s` in memory of its own: V8 flattens the concatenation into a new string before slicing it. */
const ownCopy = (s: string): string => (s + ' ').slice(0, -1);
