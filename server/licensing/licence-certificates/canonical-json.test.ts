import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from './canonical-json.ts';

describe('canonicalJson', () => {
  it('sorts keys at every depth and writes no whitespace', () => {
    expect(canonicalJson({ b: 1, a: { d: [3, { z: true, y: null }], c: 'x' } })).toBe(
      '{"a":{"c":"x","d":[3,{"y":null,"z":true}]},"b":1}',
    );
  });

  it('keeps array order', () => {
    expect(canonicalJson(['b', 'a', 2, 1])).toBe('["b","a",2,1]');
  });

  it('sorts keys by UTF-16 code units, not by locale', () => {
    expect(canonicalJson({ a: 1, B: 2, é: 3, '\u{1F600}': 4, '\uFB01': 5 })).toBe(
      '{"B":2,"a":1,"é":3,"\u{1F600}":4,"\uFB01":5}',
    );
  });

  it('escapes strings as JSON does, keeping non-ASCII text as is', () => {
    expect(canonicalJson({ s: 'quote " backslash \\ newline \n tab \t ü \u0001' })).toBe(
      '{"s":"quote \\" backslash \\\\ newline \\n tab \\t ü \\u0001"}',
    );
  });

  it('writes numbers in their shortest round-trip form', () => {
    expect(canonicalJson([1, 1.5, -0, 1e21, 0.000001, 25])).toBe('[1,1.5,0,1e+21,0.000001,25]');
  });

  it('gives the same text for objects that differ only in key order', () => {
    const a = { licenceId: 'l1', quantity: 3, features: ['x'], edition: 'Pro' };
    const b = { edition: 'Pro', features: ['x'], quantity: 3, licenceId: 'l1' };
    expect(canonicalJson(a)).toBe(canonicalJson(b));
  });

  it('rejects what JSON cannot round-trip', () => {
    expect(() => canonicalJson({ n: Number.NaN })).toThrow(TypeError);
    expect(() => canonicalJson({ n: Number.POSITIVE_INFINITY })).toThrow(TypeError);
    expect(() => canonicalJson({ u: undefined })).toThrow(/undefined/);
    expect(() => canonicalJson({ d: new Date(0) })).toThrow(/plain objects/);
    expect(() => canonicalJson(() => 1)).toThrow(TypeError);
    expect(() => canonicalJson(10n)).toThrow(TypeError);
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(() => canonicalJson(cyclic)).toThrow(/cycle/);
  });

  it('allows the same object twice when it is not a cycle', () => {
    const shared = { a: 1 };
    expect(canonicalJson([shared, shared])).toBe('[{"a":1},{"a":1}]');
  });

  it('round-trips: parsing the output and encoding again gives the same text', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const text = canonicalJson(value);
        expect(canonicalJson(JSON.parse(text))).toBe(text);
      }),
    );
  });

  it('sorts integer-like keys as strings, unlike JavaScript property order', () => {
    expect(canonicalJson({ 9: 'a', 10: 'b', x: 'c' })).toBe('{"10":"b","9":"a","x":"c"}');
  });

  it('parses back to a value equal to the input', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(JSON.parse(canonicalJson(value))).toEqual(JSON.parse(JSON.stringify(value)));
      }),
    );
  });
});
