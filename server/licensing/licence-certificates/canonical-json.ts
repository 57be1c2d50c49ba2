/** A value canonical JSON can encode: what JSON.parse can return, with finite numbers only. */
export type CanonicalValue =
  | null
  | boolean
  | number
  | string
  | readonly CanonicalValue[]
  | { readonly [key: string]: CanonicalValue };

/**
 * Serialises a value as canonical JSON: object keys sorted by UTF-16 code units, no whitespace,
 * strings and numbers as `JSON.stringify` writes them (the same rules as RFC 8785 for the values
 * we sign). Two parties that hold equal values produce byte-identical text, which is what a
 * signature needs. Anything JSON cannot round-trip (NaN, Infinity, undefined, functions, dates,
 * class instances, cycles) throws instead of being silently dropped or altered.
 */
export function canonicalJson(value: unknown): string {
  return encode(value, new Set());
}

function encode(value: unknown, ancestors: Set<object>): string {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'boolean':
      return value ? 'true' : 'false';
    case 'string':
      return JSON.stringify(value);
    case 'number':
      if (!Number.isFinite(value)) throw new TypeError(`canonical JSON cannot encode ${value}`);
      // -0 and 0 are equal values; JSON.stringify already writes both as 0.
      return JSON.stringify(value);
    case 'object':
      break;
    default:
      throw new TypeError(`canonical JSON cannot encode a value of type ${typeof value}`);
  }
  if (ancestors.has(value)) throw new TypeError('canonical JSON cannot encode a cycle');
  ancestors.add(value);
  try {
    if (Array.isArray(value)) {
      const items: unknown[] = value;
      return `[${items.map((item) => encode(item, ancestors)).join(',')}]`;
    }
    const prototype: unknown = Object.getPrototypeOf(value);
    if (prototype !== Object.prototype && prototype !== null) {
      throw new TypeError('canonical JSON encodes plain objects only');
    }
    const entries = Object.entries(value);
    for (const [key, item] of entries) {
      if (item === undefined) throw new TypeError(`canonical JSON: property ${key} is undefined`);
    }
    // Default sort compares UTF-16 code units, as RFC 8785 requires.
    entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${encode(item, ancestors)}`).join(',')}}`;
  } finally {
    ancestors.delete(value);
  }
}
