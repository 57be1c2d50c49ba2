import { describe, expect, it } from 'vitest';
import { vatIdCheckDigitsPass } from './vat-id-check-digits.ts';
import { euCountries, euVatIdFormats, type EuCountry } from './vat.ts';

/**
 * Real-format numbers whose check digits are right, one or more per member state and kind of
 * number (computed by each state's published algorithm; the same numbers python-stdnum documents).
 */
const valid: Record<EuCountry, readonly string[]> = {
  AT: ['ATU13585627'],
  BE: ['BE0403019261'],
  BG: ['BG175074752', 'BG7523169263', 'BG8032056031'],
  CY: ['CY10259033P'],
  CZ: ['CZ25123891', 'CZ7103192745', 'CZ640903926'],
  DE: ['DE136695976'],
  DK: ['DK13585628'],
  EE: ['EE100931558'],
  GR: ['EL094259216'],
  ES: ['ESA13585625', 'ES54362315K', 'ESX2482300W'],
  FI: ['FI20774740'],
  FR: ['FR40303265045', 'FR23334175221', 'FRK7399859412'],
  HR: ['HR33392005961'],
  HU: ['HU12892312'],
  IE: ['IE6433435F', 'IE8D79739I', 'IE3628739UA'],
  IT: ['IT00743110157'],
  LT: ['LT119511515', 'LT100001919017'],
  LU: ['LU15027442'],
  LV: ['LV40003521600', 'LV16117519997'],
  MT: ['MT11679112'],
  NL: ['NL004495445B01', 'NL000099998B57'],
  PL: ['PL8567346215'],
  PT: ['PT501964843'],
  RO: ['RO18547290', 'RO24736200'],
  SE: ['SE123456789701'],
  SI: ['SI50223054'],
  SK: ['SK2022749619'],
};

/** Where the check character is: last, but before the Dutch `B01` and the Swedish `01`. */
function checkIndex(vatId: string): number {
  if (vatId.startsWith('NL')) return 10;
  if (vatId.startsWith('SE')) return 11;
  return vatId.length - 1;
}

/** The number with its check character changed, which no check digit allows. */
function withCheckChanged(vatId: string): string {
  const at = checkIndex(vatId);
  const check = vatId[at] ?? '0';
  const next = /\d/.test(check)
    ? String((Number(check) + 1) % 10)
    : check === 'Z'
      ? 'A'
      : String.fromCharCode(check.charCodeAt(0) + 1);
  return vatId.slice(0, at) + next + vatId.slice(at + 1);
}

describe('the check digits of EU VAT IDs', () => {
  it('has numbers for all 27 member states, each in its state’s format', () => {
    expect(Object.keys(valid).sort()).toEqual([...euCountries].sort());
    for (const state of euCountries) {
      for (const number of valid[state]) {
        expect(euVatIdFormats[state].pattern.test(number), number).toBe(true);
      }
    }
  });

  it('passes the real-format numbers whose check digits are right', () => {
    const numbers = Object.values(valid).flat();
    expect(numbers.filter((number) => !vatIdCheckDigitsPass(number))).toEqual([]);
  });

  it('fails each of them with its check character changed', () => {
    const changed = Object.values(valid).flat().map(withCheckChanged);
    expect(changed.filter((number) => vatIdCheckDigitsPass(number))).toEqual([]);
  });

  it('fails the made-up numbers of the attack: FR00000000000, ATU00000000 and the like', () => {
    for (const number of [
      'FR00000000000',
      'ATU00000000',
      'BE0000000000',
      'DE000000000',
      'DE123456789',
      'ATU12345678',
      'IT00000000000',
      'FI00000000',
      'LU00000000',
      'HU00000000',
      'NL000000000B01',
      'PL0000000000',
      'SK0000000000',
      'ESB12345678',
      'FR12345678901',
    ]) {
      expect(vatIdCheckDigitsPass(number), number).toBe(false);
    }
  });

  it('knows no state outside the EU, nor Northern Ireland', () => {
    expect(vatIdCheckDigitsPass('GB123456789')).toBe(false);
    expect(vatIdCheckDigitsPass('XI123456789')).toBe(false);
    expect(vatIdCheckDigitsPass('')).toBe(false);
  });
});
