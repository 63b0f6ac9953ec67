// Freezes a value and everything under it, so a test fails loudly if the code under test mutates
// its inputs.
export function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}
