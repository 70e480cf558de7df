/**
 * Plain objects keyed by the user's names (variables, states, columns), as results and options
 * carry them. A name may be `__proto__`, which `record[name] = value` takes as the object's
 * prototype instead of storing it, or `constructor` / `toString`, which `record[name]` finds on
 * Object.prototype when the record lacks it. These two helpers store and read own keys only.
 */

/** `record[key] = value`, as an own property whatever the key. */
export function setOwn<T>(record: Record<string, T>, key: string, value: T): void {
  Object.defineProperty(record, key, { value, writable: true, enumerable: true, configurable: true });
}

/** `record[key]` when the record itself has the key; undefined otherwise. */
export function ownValue<T>(record: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}
