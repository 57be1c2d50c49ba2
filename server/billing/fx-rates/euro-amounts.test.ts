import { describe, expect, it } from 'vitest';
import { parseEcbReferenceRates } from './ecb-reference-rates.ts';
import {
  euroAmountsAt,
  normalizeRate,
  rateMillionths,
  rateTextSchema,
  toEuroMinor,
} from './euro-amounts.ts';

describe('rates to the euro', () => {
  it('reads a rate as whole millionths and writes it as the ECB does', () => {
    expect(rateMillionths('1.0512')).toBe(1_051_200n);
    expect(rateMillionths('1.051234')).toBe(1_051_234n);
    expect(rateMillionths('2')).toBe(2_000_000n);
    expect(normalizeRate('1.051200')).toBe('1.0512');
    expect(normalizeRate('1.05')).toBe('1.0500');
    expect(normalizeRate('1.051234')).toBe('1.051234');
  });

  it('refuses what is not a rate', () => {
    for (const bad of [
      '',
      '0',
      '0.000000',
      '-1.05',
      '1,0512',
      '1.0512345',
      '1e3',
      ' 1.05',
      '01.05',
      'NaN',
    ]) {
      expect(rateTextSchema.safeParse(bad).success, bad).toBe(false);
    }
    expect(rateTextSchema.safeParse('0.8765').success).toBe(true);
    expect(() => rateMillionths('1,05')).toThrow(RangeError);
  });

  it('converts cents exactly and rounds half up to the cent, a half away from zero', () => {
    // 2,478.74 USD of VAT at 1.0512 is 2,358.0098… EUR.
    expect(toEuroMinor(247_874, '1.0512')).toBe(235_801);
    expect(toEuroMinor(105_120, '1.0512')).toBe(100_000);
    // Exactly half a cent: up.
    expect(toEuroMinor(5, '2')).toBe(3);
    expect(toEuroMinor(15, '2')).toBe(8);
    expect(toEuroMinor(1, '2')).toBe(1);
    // Below half: down.
    expect(toEuroMinor(1, '3')).toBe(0);
    // A credit (negative) rounds as its invoice, away from zero.
    expect(toEuroMinor(-5, '2')).toBe(-3);
    expect(toEuroMinor(-247_874, '1.0512')).toBe(-235_801);
    expect(toEuroMinor(0, '1.0512')).toBe(0);
    expect(Object.is(toEuroMinor(-1, '3'), -0)).toBe(false);
    expect(() => toEuroMinor(1.5, '1.0512')).toThrow(RangeError);
  });

  it('converts a document’s net, VAT and gross each, keeping the rate, its day and source', () => {
    expect(
      euroAmountsAt(
        { netMinor: 1_304_600, vatMinor: 247_874, grossMinor: 1_552_474 },
        { currency: 'USD', rateOn: '2026-11-26', perEur: '1.051200', source: 'ECB' },
      ),
    ).toEqual({
      perEur: '1.0512',
      rateOn: '2026-11-26',
      source: 'ECB',
      netMinor: 1_241_058,
      vatMinor: 235_801,
      grossMinor: 1_476_859,
    });
  });
});

describe('the ECB’s reference rates file', () => {
  const daily = `<?xml version="1.0" encoding="UTF-8"?>
<gesmes:Envelope xmlns:gesmes="http://www.gesmes.org/xml/2002-08-01" xmlns="http://www.ecb.int/vocabulary/2002-08-01/eurofxref">
  <gesmes:subject>Reference rates</gesmes:subject>
  <Cube>
    <Cube time='2026-11-27'>
      <Cube currency='USD' rate='1.0512'/>
      <Cube currency='JPY' rate='161.23'/>
    </Cube>
    <Cube time="2026-11-26">
      <Cube currency="USD" rate="1.0498"/>
      <Cube currency="GBP" rate="bad"/>
    </Cube>
  </Cube>
</gesmes:Envelope>`;

  it('reads every day’s rates, in either quote style, skipping what is not a rate', () => {
    expect(parseEcbReferenceRates(daily)).toEqual([
      { currency: 'USD', rateOn: '2026-11-27', perEur: '1.0512' },
      { currency: 'JPY', rateOn: '2026-11-27', perEur: '161.23' },
      { currency: 'USD', rateOn: '2026-11-26', perEur: '1.0498' },
    ]);
  });

  it('refuses a file without rates (an error page)', () => {
    expect(() => parseEcbReferenceRates('<html>Service unavailable</html>')).toThrow(/no ECB/);
  });
});
