import { describe, expect, it } from 'vitest';
import { formatPrice, priceInfo, unitPrices } from '#shared/pricing/index.ts';
import { pages } from '../pages.ts';
import { pricingFaqItems } from './pricing-faq.tsx';

describe('pricing page content', () => {
  it('keeps the meta description in line with the engine', () => {
    const pro = unitPrices('Pro', 'USD').monthly.base;
    expect(pages.pricing.description).toContain(`Pro from ${pro} USD a month for 4 orgs`);
    expect(priceInfo(4).orgs).toBe(4);
    expect(priceInfo(25).orgs).toBe('unlimited');
    expect(pages.pricing.description).toContain('Enterprise with unlimited orgs');
  });

  it('answers every FAQ the issue lists, with a plain-text answer for the structured data', () => {
    const text = pricingFaqItems.map((item) => `${item.title} ${item.answerText}`).join('\n');
    for (const fact of [
      'per Salesforce org, not per user',
      'two months with no limits and needs no credit card',
      'each address gets one trial',
      'up to 5 stacks and 24 orgs',
      `base price of ${formatPrice(495, 'USD')} a month`,
      'trial converts to your paid licence automatically',
      'billed in advance',
      'not refunded',
      'end of the billing period',
      'take effect immediately and are prorated',
      'free technical support',
      'within 24 hours at most on business days',
      'US dollars (USD) and euros (EUR)',
    ]) {
      expect(text).toContain(fact);
    }
    const titles = pricingFaqItems.map((item) => item.title);
    expect(new Set(titles).size).toBe(titles.length);
    for (const item of pricingFaqItems) expect(item.answerText.length).toBeGreaterThan(40);
  });
});
