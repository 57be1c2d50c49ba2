import { describe, expect, it } from 'vitest';
import { siteConfig } from '#shared/site-config.ts';
import { taxNotes, taxTreatment } from './tax-treatment.ts';

const seller = siteConfig.company.vatId;

describe('the tax note of a quote', () => {
  it('says "+ local tax" without a VAT ID', () => {
    expect(taxTreatment(undefined, seller)).toEqual({ kind: 'local-tax', note: taxNotes.localTax });
    expect(taxNotes.localTax).toContain('+ local tax');
  });

  it('charges a business in the seller’s own country its VAT (local tax)', () => {
    expect(seller.startsWith('DE')).toBe(true);
    expect(taxTreatment('DE123456789', seller).kind).toBe('local-tax');
  });

  it('reverses the charge for a business in another EU state, naming its VAT ID', () => {
    expect(taxTreatment('FR40303265045', seller)).toEqual({
      kind: 'reverse-charge',
      buyerVatId: 'FR40303265045',
      note: taxNotes.reverseCharge,
    });
    // Greece's VAT IDs start with EL, not its ISO code.
    expect(taxTreatment('EL094014201', seller).kind).toBe('reverse-charge');
    expect(taxNotes.reverseCharge).toContain('Reverse charge');
  });

  it('adds local tax outside the EU, VAT ID or not', () => {
    for (const id of [
      'GB123456789',
      'CHE123456789',
      'NO123456789MVA',
      'GR094014201',
      'XI123456789',
    ]) {
      expect(taxTreatment(id, seller).kind, id).toBe('local-tax');
    }
  });
});
