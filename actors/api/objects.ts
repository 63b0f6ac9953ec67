// Copies of objects with fields added, made so that V8 keeps their hidden classes shared.
//
// In Node 20's V8 (11.3), an object literal that spreads another object and then adds a key the
// other did not have (`{ ...spec, nodeName }`), or a spread copy that is given a new key
// afterwards, gets a hidden class of its own instead of one shared with every object built the
// same way: some 300 bytes more for each such object, for as long as it lives. Stored objects
// and per-pod state live long, so they are built with these. Spreads that only replace keys
// the source has, or that come after the literal's own keys (`{ a, ...b }`), are fine.

/** `{ ...base, ...fields }`. */
export function withFields<T extends object, U extends object>(base: T, fields: U): Omit<T, keyof U> & U {
  return Object.assign({}, base, fields);
}

/** `{ ...base }`, for a copy that will be given new keys. */
export function copyOf<T extends object>(base: T): T {
  return Object.assign({}, base);
}
