import { describe, expect, it } from 'vitest';
import type { CheckoutStatus } from '#shared/contracts/checkout.ts';
import { purchaseContent } from './checkout-success.ts';

const textOf = (status: CheckoutStatus) => {
  const content = purchaseContent(status);
  return [content.summary, ...content.steps.flatMap((step) => [step.title, step.text])].join('\n');
};

const issued = { state: 'issued', edition: 'Pro', quantity: 6, email: 'a@b.test' } as const;

describe('the checkout-success text', () => {
  it('promises a new key only for a purchase that gets one, or when the page cannot tell', () => {
    for (const status of [
      { ...issued, converted: false },
      { state: 'processing' },
      { state: 'unknown' },
    ] satisfies CheckoutStatus[]) {
      const text = textOf(status);
      expect(text).toContain('Your licence key is on its way');
      expect(text).not.toMatch(/same (licence )?key|does not change/);
      // The key e-mail does explain this now (keyUsageEmailBlocks).
      expect(text).toContain('how to give it to the CLI');
    }
  });

  it('tells a converted trial its key stays, and promises no new one', () => {
    const text = textOf({ ...issued, converted: true });
    expect(text).not.toMatch(/key is on its way|send your licence key/);
    expect(text).toContain('Your key does not change');
  });
});
