import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PAGE_STATE_PARAMS } from '#shared/contracts/page-url.ts';
import { parsePriceSelection } from '../components/pricing/price-selection.ts';
import { canonicalPageState } from './canonical-page-state.ts';

describe('canonicalPageState', () => {
  it('keeps the dialog on every page and the quote on the pricing page, nothing else', () => {
    expect(canonicalPageState('/', 'modal=contact&fbclid=1')).toBe('modal=contact');
    expect(canonicalPageState('/imprint', 'utm_source=x&size=10&currency=EUR')).toBe('');
    expect(canonicalPageState('/pricing', 'utm_source=x&currency=EUR&size=10')).toBe(
      'size=10&currency=EUR',
    );
    expect(canonicalPageState('/pricing', 'modal=trial&size=10')).toBe('size=10&modal=trial');
    expect(canonicalPageState('/pricing', '')).toBe('');
  });

  it('leaves out invalid values, which the page treats as absent', () => {
    expect(canonicalPageState('/', 'modal=7')).toBe('');
    expect(canonicalPageState('/', 'modal=Contact')).toBe('');
    expect(canonicalPageState('/pricing', 'size=7000&currency=XYZ&period=weekly')).toBe('');
    expect(canonicalPageState('/pricing', 'size=2&plan=Gold&currency=EUR')).toBe('currency=EUR');
  });

  it('writes valid values the way the page writes them', () => {
    expect(canonicalPageState('/pricing', 'currency=eur&period=YEARLY&size=010')).toBe(
      'size=10&period=yearly&currency=EUR',
    );
    // A plan card sent as a form button overrides the size.
    expect(canonicalPageState('/pricing', 'size=10&plan=Enterprise')).toBe('plan=Enterprise');
    expect(canonicalPageState('/pricing', 'size=10&plan=enterprise')).toBe('size=10');
  });

  it('names only page-state parameters', () => {
    const state = new URLSearchParams(
      canonicalPageState('/pricing', 'size=5&period=yearly&currency=EUR&plan=Pro&modal=trial'),
    );
    for (const name of state.keys()) expect(PAGE_STATE_PARAMS).toContain(name);
  });

  it('asks for the very quote and dialog the URL asks for, whatever the URL holds', () => {
    const value = fc.oneof(
      fc.constantFrom('', '3', '10', '010', '25', '26', '7000', '4.5', 'yearly', 'YEARLY'),
      fc.constantFrom('monthly', 'weekly', 'EUR', 'eur', 'USD', 'XYZ', 'Pro', 'Enterprise'),
      fc.constantFrom('contact', 'trial', 'portal-access', 'Contact', '7'),
      fc.string({ maxLength: 6 }),
    );
    const name = fc.constantFrom(...PAGE_STATE_PARAMS, 'utm_source', 'ref');
    fc.assert(
      fc.property(fc.array(fc.tuple(name, value), { maxLength: 8 }), (pairs) => {
        const asked = new URLSearchParams(pairs);
        const canonical = new URLSearchParams(canonicalPageState('/pricing', asked.toString()));
        expect(parsePriceSelection(canonical)).toEqual(parsePriceSelection(asked));
        const modal = asked.get('modal');
        expect(canonical.get('modal')).toBe(
          ['contact', 'trial', 'portal-access'].includes(modal ?? '') ? modal : null,
        );
      }),
    );
  });
});
