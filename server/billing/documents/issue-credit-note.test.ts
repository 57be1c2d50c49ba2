import { describe, expect, it } from 'vitest';
import { creditableRest, splitCredit } from './issue-credit-note.ts';

const invoice = { netMinor: 1_304_600, vatMinor: 247_874, grossMinor: 1_552_474 };

describe('credit notes split what they credit as the invoice did (decision 220)', () => {
  it('splits a part at the invoice’s rate and gives the last credit exactly what is left', () => {
    const first = splitCredit(11_900, invoice, creditableRest(invoice, []));
    expect(first).toEqual({ netMinor: 10_000, vatMinor: 1_900, grossMinor: 11_900 });
    const second = splitCredit(333, invoice, creditableRest(invoice, [first]));
    expect(second.netMinor + second.vatMinor).toBe(333);
    const rest = creditableRest(invoice, [first, second]);
    const last = splitCredit(rest.grossMinor, invoice, rest);
    const all = [first, second, last];
    const sum = (pick: (row: (typeof all)[number]) => number) =>
      all.reduce((total, row) => total + pick(row), 0);
    expect([
      sum((row) => row.netMinor),
      sum((row) => row.vatMinor),
      sum((row) => row.grossMinor),
    ]).toEqual([invoice.netMinor, invoice.vatMinor, invoice.grossMinor]);
    expect(creditableRest(invoice, all)).toEqual({ netMinor: 0, vatMinor: 0, grossMinor: 0 });
  });

  it('reverses no VAT of an invoice that charged none (reverse charge, export)', () => {
    const reverseCharge = { netMinor: 50_000, vatMinor: 0, grossMinor: 50_000 };
    expect(splitCredit(12_345, reverseCharge, creditableRest(reverseCharge, []))).toEqual({
      netMinor: 12_345,
      vatMinor: 0,
      grossMinor: 12_345,
    });
  });

  it('never reverses more VAT than is left, even after odd roundings', () => {
    const small = { netMinor: 100, vatMinor: 19, grossMinor: 119 };
    const credits = [] as Array<{ netMinor: number; vatMinor: number; grossMinor: number }>;
    for (let i = 0; i < 119; i++) {
      credits.push(splitCredit(1, small, creditableRest(small, credits)));
    }
    const rest = creditableRest(small, credits);
    expect(rest).toEqual({ netMinor: 0, vatMinor: 0, grossMinor: 0 });
    expect(credits.every((row) => row.netMinor >= 0 && row.vatMinor >= 0)).toBe(true);
  });

  it('refuses nothing, a negative amount, a fraction of a cent and more than is left', () => {
    const rest = creditableRest(invoice, []);
    for (const amount of [0, -1, 1.5, invoice.grossMinor + 1, Number.NaN]) {
      expect(() => splitCredit(amount, invoice, rest), String(amount)).toThrow(RangeError);
    }
  });
});
