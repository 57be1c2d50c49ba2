import { describe, expect, it } from 'vitest';
import { cardMessages, checkCard, groupedCardNumber } from './local-cards.ts';

const now = new Date('2026-01-15T10:00:00Z');
const valid = { cardNumber: '4242 4242 4242 4242', cardExpiry: '12 / 34', cardCvc: '123' };

describe('checkCard', () => {
  it('accepts the success and the decline test cards, typed with spaces or dashes', () => {
    expect(checkCard(valid, now)).toEqual({
      ok: true,
      card: { brand: 'Visa', last4: '4242', outcome: 'succeeds' },
    });
    expect(checkCard({ ...valid, cardNumber: '4000-0000-0000-0002' }, now)).toEqual({
      ok: true,
      card: { brand: 'Visa', last4: '0002', outcome: 'declines' },
    });
  });

  it('refuses real-looking numbers that are not test cards, and invalid numbers', () => {
    expect(checkCard({ ...valid, cardNumber: '5555 5555 5555 4444' }, now)).toEqual({
      ok: false,
      errors: { cardNumber: cardMessages.notATestCard },
    });
    expect(checkCard({ ...valid, cardNumber: '4242 4242 4242 4241' }, now)).toEqual({
      ok: false,
      errors: { cardNumber: cardMessages.numberInvalid },
    });
    expect(checkCard({ ...valid, cardNumber: '' }, now)).toMatchObject({
      errors: { cardNumber: cardMessages.numberRequired },
    });
  });

  it('checks expiry (through the end of its month) and the security code', () => {
    expect(checkCard({ ...valid, cardExpiry: '01/26' }, now)).toMatchObject({ ok: true });
    expect(checkCard({ ...valid, cardExpiry: '12/25' }, now)).toEqual({
      ok: false,
      errors: { cardExpiry: cardMessages.expiryPast },
    });
    expect(checkCard({ ...valid, cardExpiry: '13/30' }, now)).toMatchObject({
      errors: { cardExpiry: cardMessages.expiryInvalid },
    });
    expect(checkCard({ ...valid, cardExpiry: '' }, now)).toMatchObject({
      errors: { cardExpiry: cardMessages.expiryRequired },
    });
    expect(checkCard({ ...valid, cardCvc: '12' }, now)).toMatchObject({
      errors: { cardCvc: cardMessages.cvcInvalid },
    });
  });

  it('formats card numbers in groups of four', () => {
    expect(groupedCardNumber('4000000000000002')).toBe('4000 0000 0000 0002');
  });
});
