import { PAGE_STATE_PARAMS } from '#shared/contracts/page-url.ts';
import { describe, expect, it } from 'vitest';
import {
  defaultSelection,
  parsePriceSelection,
  planParam,
  selectionParams,
  quotePath,
  searchParamsWithSelection,
} from './price-selection.ts';

const parse = (search: string) => parsePriceSelection(new URLSearchParams(search));

describe('parsePriceSelection', () => {
  it('defaults to size 4, monthly, USD', () => {
    expect(parse('')).toEqual({ size: 4, billingPeriod: 'monthly', currency: 'USD' });
    expect(defaultSelection).toEqual(parse(''));
  });

  it('reads a shared quote', () => {
    expect(parse('size=10&period=yearly&currency=EUR')).toEqual({
      size: 10,
      billingPeriod: 'yearly',
      currency: 'EUR',
    });
    expect(parse('size=3')).toEqual({ size: 3, billingPeriod: 'monthly', currency: 'USD' });
    expect(parse('size=25&currency=eur&period=YEARLY')).toEqual({
      size: 25,
      billingPeriod: 'yearly',
      currency: 'EUR',
    });
  });

  it('falls back per value when a value is invalid', () => {
    for (const size of ['2', '26', '0', '-5', '4.5', '1e1', ' 10', 'ten', '', '999999']) {
      expect(parse(`size=${encodeURIComponent(size)}&currency=EUR`)).toEqual({
        size: 4,
        billingPeriod: 'monthly',
        currency: 'EUR',
      });
    }
    expect(parse('size=10&period=weekly&currency=GBP')).toEqual({
      size: 10,
      billingPeriod: 'monthly',
      currency: 'USD',
    });
  });
});

describe('searchParamsWithSelection', () => {
  it('writes all three values and keeps other parameters', () => {
    const next = searchParamsWithSelection(new URLSearchParams('modal=trial&size=3'), {
      size: 12,
      billingPeriod: 'yearly',
      currency: 'EUR',
    });
    expect(next.toString()).toBe('modal=trial&size=12&period=yearly&currency=EUR');
  });

  it('round-trips through the parser', () => {
    const selection = { size: 17, billingPeriod: 'yearly', currency: 'EUR' } as const;
    expect(
      parsePriceSelection(searchParamsWithSelection(new URLSearchParams(), selection)),
    ).toEqual(selection);
    expect(quotePath(selection)).toBe('/pricing?size=17&period=yearly&currency=EUR');
  });
});

describe('the quote parameters', () => {
  it('are page state, so the server renders and caches one page per quote', () => {
    for (const name of Object.values(selectionParams)) expect(PAGE_STATE_PARAMS).toContain(name);
    expect(PAGE_STATE_PARAMS).toContain('modal');
    expect(PAGE_STATE_PARAMS).toContain(planParam);
  });

  it('take a plan card sent as a form button as that plan’s default size, and drop it again', () => {
    const sent = new URLSearchParams('size=10&period=yearly&currency=EUR&plan=Enterprise');
    expect(parsePriceSelection(sent)).toEqual({
      size: 25,
      billingPeriod: 'yearly',
      currency: 'EUR',
    });
    expect(parsePriceSelection(new URLSearchParams('size=10&plan=Starter')).size).toBe(3);
    expect(parsePriceSelection(new URLSearchParams('size=10&plan=Gold')).size).toBe(10);
    const written = searchParamsWithSelection(sent, parsePriceSelection(sent));
    expect(written.toString()).toBe('size=25&period=yearly&currency=EUR');
    // As the plain form sends it: other order, the plan last; written back in the usual order.
    const fromForm = new URLSearchParams(
      'modal=trial&period=monthly&currency=USD&size=10&plan=Enterprise',
    );
    expect(searchParamsWithSelection(fromForm, parsePriceSelection(fromForm)).toString()).toBe(
      'modal=trial&size=25&period=monthly&currency=USD',
    );
  });
});
