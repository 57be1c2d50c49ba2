import { describe, expect, it } from 'vitest';
import {
  createInvoiceOrderId,
  createInvoiceOrderToken,
  hashInvoiceOrderToken,
  INVOICE_ORDER_TOKEN_PATTERN,
} from './invoice-order-token.ts';
import { invoiceOrderLink } from './place-invoice-order.ts';

describe('invoice order links', () => {
  it('are 32 random characters, stored only as a keyed hash', () => {
    const token = createInvoiceOrderToken();
    expect(token).toMatch(INVOICE_ORDER_TOKEN_PATTERN);
    expect(createInvoiceOrderToken()).not.toBe(token);
    const hash = hashInvoiceOrderToken('secret-one', token);
    expect(hash).not.toContain(token);
    expect(hashInvoiceOrderToken('secret-one', token)).toBe(hash);
    expect(hashInvoiceOrderToken('secret-two', token)).not.toBe(hash);
  });
  it('open the site landing page, never the API', () => {
    expect(invoiceOrderLink('https://www.orgsmith.io', 'abc_-')).toBe(
      'https://www.orgsmith.io/invoice-order?token=abc_-',
    );
  });
  it('order ids are io_ and 16 characters', () => {
    expect(createInvoiceOrderId()).toMatch(/^io_[A-Za-z0-9_-]{16}$/);
  });
});
