import { describe, expect, it } from 'vitest';
import { countriesByName, countryNames, isCountryCode } from '../countries.ts';
import { siteConfig } from '../site-config.ts';
import {
  decideVat,
  euCountries,
  euStateOfVatId,
  euVatIdFormats,
  normalizeVatId,
  sellerCountry,
  vatAmounts,
  vatIdProblem,
  vatLabel,
  vatMessages,
  vatNotes,
  vatPricingLine,
  decideVatBeforeVies,
  reverseChargeMayApply,
  vatCases,
  type VatIdConfirmation,
} from './vat.ts';

/** VIES's confirmation of `vatId`, as server/billing/vat/confirm-vat-id.ts makes it. */
function confirmed(vatId: string): VatIdConfirmation {
  return {
    vatId,
    by: 'vies',
    consultationNumber: 'WAPIAAAAX1234567',
    confirmedOn: '2026-01-15',
    name: null,
    address: null,
  };
}

describe('the countries', () => {
  it('are the 249 assigned ISO codes, and nothing else', () => {
    expect(Object.keys(countryNames)).toHaveLength(249);
    expect(isCountryCode('DE')).toBe(true);
    for (const junk of ['de', 'XX', 'EU', 'UK', 'EL', 'XI', '', 'DEU', '__proto__', 'toString']) {
      expect(isCountryCode(junk), junk).toBe(false);
    }
  });

  it('sort by name, accents ignored', () => {
    const names = countriesByName.map((country) => country.name);
    expect(names[0]).toBe('Afghanistan');
    expect(names[1]).toBe('Åland Islands');
    expect(names.indexOf('Türkiye')).toBeLessThan(names.indexOf('Turkmenistan'));
  });
});

describe('the EU', () => {
  it('has 27 member states, Greece as EL, no United Kingdom or Northern Ireland', () => {
    expect(euCountries).toHaveLength(27);
    expect(euVatIdFormats.GR.prefix).toBe('EL');
    expect(euCountries).not.toContain('GB');
    expect(euCountries.every((code) => isCountryCode(code))).toBe(true);
  });

  it("accepts each state's own example and refuses it for every other state", () => {
    for (const state of euCountries) {
      const { example } = euVatIdFormats[state];
      expect(vatIdProblem(state, example), state).toBeNull();
      expect(euStateOfVatId(example), example).toBe(state);
      const other = state === 'FR' ? 'DE' : 'FR';
      expect(vatIdProblem(other, example), `${example} in ${other}`).toBe(
        vatMessages.vatIdOfOtherState(state),
      );
    }
  });

  it('names the format of the chosen state when the number does not fit it', () => {
    expect(vatIdProblem('DE', 'DE12345678')).toBe(
      'This is not a valid VAT ID for Germany: DE and 9 digits, e.g. DE123456789.',
    );
    expect(vatIdProblem('GR', 'GR123456789')).toBe(vatMessages.vatIdForState('GR'));
    expect(vatIdProblem('AT', 'AT12345678')).toBe(vatMessages.vatIdForState('AT'));
    expect(vatIdProblem('NL', 'NL123456789')).toBe(vatMessages.vatIdForState('NL'));
    expect(vatIdProblem('SE', 'SE123456789012')).toBe(vatMessages.vatIdForState('SE'));
  });

  it('refuses an EU VAT ID for a country outside the EU', () => {
    expect(vatIdProblem('US', 'DE123456789')).toBe(vatMessages.vatIdOfOtherState('DE'));
    expect(vatIdProblem('CH', 'CHE123456789MWST')).toBeNull();
    expect(vatIdProblem('US', '123456789')).toBeNull();
    expect(vatIdProblem('US', 'A1')).toBe(vatMessages.taxIdInvalid);
    expect(vatIdProblem('US', 'X'.repeat(21))).toBe(vatMessages.taxIdInvalid);
  });

  it('refuses a country that is not an ISO code', () => {
    expect(vatIdProblem('XX', undefined)).toBe(vatMessages.countryInvalid);
    expect(vatIdProblem('de', undefined)).toBe(vatMessages.countryInvalid);
  });
});

describe('normalizeVatId', () => {
  it('drops what people type between the characters', () => {
    expect(normalizeVatId(' de 123.456-789 ')).toBe('DE123456789');
    expect(normalizeVatId('CHE-123.456.789 MWST')).toBe('CHE123456789MWST');
  });

  it("prefixes an EU state's number typed without its prefix", () => {
    expect(normalizeVatId('123 456 789', 'DE')).toBe('DE123456789');
    expect(normalizeVatId('123456789', 'GR')).toBe('EL123456789');
    expect(normalizeVatId('123456789', 'US')).toBe('123456789');
  });
});

describe('decideVat', () => {
  it('is sold from Germany', () => {
    expect(sellerCountry).toBe('DE');
    expect(siteConfig.company.vatId).toMatch(euVatIdFormats.DE.pattern);
  });

  it('charges a German business 19 % VAT, with or without its VAT ID', () => {
    expect(decideVat({ country: 'DE', vatId: 'DE123456789' })).toEqual({
      case: 'domestic',
      ratePercent: 19,
      note: null,
      buyerVatId: 'DE123456789',
    });
    expect(decideVat({ country: 'DE' })).toEqual({ case: 'domestic', ratePercent: 19, note: null });
  });

  it('reverses the charge for a business in another EU state whose VAT ID VIES confirmed', () => {
    const confirmation = confirmed('FR40303265045');
    expect(decideVat({ country: 'FR', vatId: 'FR40303265045', confirmation })).toEqual({
      case: 'reverse-charge',
      ratePercent: 0,
      note: `${vatNotes.reverseCharge} VAT ID FR40303265045 confirmed by VIES on 2026-01-15, consultation number WAPIAAAAX1234567.`,
      buyerVatId: 'FR40303265045',
      confirmation,
    });
    expect(
      decideVat({ country: 'GR', vatId: 'EL094259216', confirmation: confirmed('EL094259216') })
        .case,
    ).toBe('reverse-charge');
  });

  it('charges 19 % for an EU VAT ID VIES has not confirmed, whatever its format (decision 210)', () => {
    const unconfirmed = {
      case: 'eu-vat-id-unconfirmed',
      ratePercent: 19,
      note: vatNotes.vatIdUnconfirmed,
    };
    // Well-formed and with the right check digits, but not confirmed.
    expect(decideVat({ country: 'FR', vatId: 'FR40303265045' })).toEqual({
      ...unconfirmed,
      buyerVatId: 'FR40303265045',
    });
    // Made up: right format, wrong check digits — a confirmation claimed for it changes nothing.
    for (const [country, vatId] of [
      ['FR', 'FR00000000000'],
      ['AT', 'ATU00000000'],
    ] as const) {
      expect(decideVat({ country, vatId, confirmation: confirmed(vatId) })).toEqual({
        ...unconfirmed,
        buyerVatId: vatId,
      });
    }
    // A confirmation of another number does not carry over.
    expect(
      decideVat({
        country: 'FR',
        vatId: 'FR40303265045',
        confirmation: confirmed('FR23334175221'),
      }).case,
    ).toBe('eu-vat-id-unconfirmed');
    expect(vatLabel(decideVat({ country: 'FR', vatId: 'FR40303265045' }))).toBe('VAT 19 %');
    expect(vatCases).toContain('eu-vat-id-unconfirmed');
  });

  it('asks VIES only where the reverse charge could apply: another EU state, check digits right', () => {
    expect(reverseChargeMayApply({ country: 'FR', vatId: 'FR40303265045' })).toBe(true);
    expect(reverseChargeMayApply({ country: 'FR', vatId: 'FR00000000000' })).toBe(false);
    expect(reverseChargeMayApply({ country: 'AT', vatId: 'ATU00000000' })).toBe(false);
    expect(reverseChargeMayApply({ country: 'DE', vatId: 'DE136695976' })).toBe(false);
    expect(reverseChargeMayApply({ country: 'US', vatId: 'FR40303265045' })).toBe(false);
    expect(reverseChargeMayApply({ country: 'FR' })).toBe(false);
  });

  it('tells the forms what happens before VIES is asked', () => {
    expect(decideVatBeforeVies({ country: 'FR', vatId: 'FR40303265045' })).toMatchObject({
      case: 'eu-vat-id-unconfirmed',
      ratePercent: 19,
      note: vatNotes.reverseChargeOnceConfirmed,
    });
    expect(decideVatBeforeVies({ country: 'FR', vatId: 'FR00000000000' }).note).toBe(
      vatNotes.checkDigitsWrong,
    );
    expect(decideVatBeforeVies({ country: 'US' })).toEqual(decideVat({ country: 'US' }));
    expect(decideVatBeforeVies({ country: 'AT' })).toEqual(decideVat({ country: 'AT' }));
  });

  it('charges no German VAT outside the EU, and says why', () => {
    for (const country of ['US', 'CH', 'GB', 'NO', 'JP']) {
      const decision = decideVat({ country });
      expect(decision, country).toEqual({
        case: 'outside-eu',
        ratePercent: 0,
        note: vatNotes.outsideEu,
      });
    }
    expect(decideVat({ country: 'CH', vatId: 'CHE123456789MWST' }).buyerVatId).toBe(
      'CHE123456789MWST',
    );
    expect(vatNotes.outsideEu).toContain('§ 3a (2) UStG');
  });

  it('charges an EU business without a VAT ID German VAT, and says how to avoid it', () => {
    expect(decideVat({ country: 'AT' })).toEqual({
      case: 'eu-without-vat-id',
      ratePercent: 19,
      note: vatNotes.euWithoutVatId,
    });
    expect(decideVat({ country: 'AT', vatId: '' }).case).toBe('eu-without-vat-id');
  });

  it('never guesses: a pair the check refuses throws', () => {
    expect(() => decideVat({ country: 'XX' })).toThrow(RangeError);
    expect(() => decideVat({ country: 'FR', vatId: 'DE123456789' })).toThrow(RangeError);
    expect(() => decideVat({ country: 'US', vatId: 'FR40303265045' })).toThrow(RangeError);
  });

  it('labels the VAT line', () => {
    expect(vatLabel(decideVat({ country: 'DE' }))).toBe('VAT 19 %');
    expect(
      vatLabel(
        decideVat({
          country: 'FR',
          vatId: 'FR40303265045',
          confirmation: confirmed('FR40303265045'),
        }),
      ),
    ).toBe('VAT 0 % (reverse charge)');
    expect(vatLabel(decideVat({ country: 'US' }))).toBe('VAT 0 % (not taxable in Germany)');
    expect(vatPricingLine).toContain('19 %');
  });
});

describe('vatAmounts', () => {
  const german = decideVat({ country: 'DE' });
  const reverse = decideVat({
    country: 'FR',
    vatId: 'FR40303265045',
    confirmation: confirmed('FR40303265045'),
  });

  it('adds 19 % to the net, rounded half away from zero to the cent', () => {
    expect(vatAmounts(49_500, german)).toEqual({
      netMinor: 49_500,
      vatMinor: 9_405,
      grossMinor: 58_905,
      ratePercent: 19,
    });
    expect(vatAmounts(1_250, german).vatMinor).toBe(238); // 237.5
    expect(vatAmounts(1_249, german).vatMinor).toBe(237); // 237.31
    expect(vatAmounts(-1_250, german)).toEqual({
      netMinor: -1_250,
      vatMinor: -238,
      grossMinor: -1_488,
      ratePercent: 19,
    });
    expect(vatAmounts(0, german).vatMinor).toBe(0);
  });

  it('adds nothing under the reverse charge or outside the EU', () => {
    expect(vatAmounts(1_409_400, reverse)).toEqual({
      netMinor: 1_409_400,
      vatMinor: 0,
      grossMinor: 1_409_400,
      ratePercent: 0,
    });
    expect(Object.is(vatAmounts(-5, reverse).vatMinor, -0)).toBe(false);
  });

  it('adds up for every amount', () => {
    for (let net = 0; net < 5_000; net += 7) {
      const { vatMinor, grossMinor } = vatAmounts(net, german);
      expect(grossMinor - net).toBe(vatMinor);
      expect(Math.abs(vatMinor - net * 0.19)).toBeLessThanOrEqual(0.5);
    }
  });

  it('refuses fractions of a cent and unsafe amounts', () => {
    expect(() => vatAmounts(10.5, german)).toThrow(RangeError);
    expect(() => vatAmounts(Number.MAX_SAFE_INTEGER, german)).toThrow(RangeError);
  });
});
