import { describe, expect, it } from 'vitest';
import { hashAccessToken } from '#server/licensing/access-tokens/access-token.ts';
import {
  createPortalToken,
  verifyPortalToken,
} from '#server/billing/billing-portal/portal-token.ts';
import { hashInvoiceOrderToken } from '#server/billing/invoices/invoice-order-token.ts';
import {
  createKeyReplacementToken,
  verifyKeyReplacementToken,
} from '#server/licensing/licence-recovery/key-replacement-token.ts';
import { hashLicenceKey } from '#server/licensing/licences/licence-key.ts';
import { hashEmailAddress } from '#server/platform/email/normalize-email-address.ts';
import { hashQuoteToken } from '#server/billing/quotes/quote-token.ts';

/**
 * Every keyed hash the database keeps and every signed link already in someone's mailbox, for
 * fixed inputs, as the code computed them before the keyed hashes got one home (decision 164).
 * A change here would orphan stored rows or break sent links: these values never change.
 * (The rate-limit counters' bucket is pinned in `rate-limit/rate-limiter.test.ts`.)
 */
const secretKey = 'pinned-secret-key-0123456789abcdefghijklmnop';
const now = new Date('2026-01-15T10:00:00Z');

describe('stored keyed hashes', () => {
  it('of e-mail addresses (trial claims), hex', () => {
    expect(hashEmailAddress(secretKey, 'jane@example.com')).toBe(
      'a0506c6d2a890a4ecb5436e533f3eb8b5c007db52bf92c3391719b9370792fa3',
    );
    expect(hashEmailAddress(secretKey, 'jörg@exämple.com')).toBe(
      '45767731d58da61bde7f572424e2c5982509a32abdf24593cf713c492d873113',
    );
  });

  it('of licence keys, hex', () => {
    expect(hashLicenceKey(secretKey, 'ORGS-0123-4567-89AB-CDEF-GHJK-MNPQ-RSTV')).toBe(
      'c34fdabc8ee1c8f1bf033de4d71062f15c0e8d5da270826e0613d09a07004491',
    );
  });

  it('of access tokens, hex', () => {
    expect(hashAccessToken(secretKey, `orgsmith_at_${'A'.repeat(43)}`)).toBe(
      '79a8d6c495ef76a0b44638a0407b56c684db2baed52d102f2ea90dd3882f740b',
    );
  });

  it('of quote and invoice-order link tokens, base64url', () => {
    const token = 'abcdefghijklmnopqrstuvwxyz012345';
    expect(hashQuoteToken(secretKey, token)).toBe('pv4LnRJfoajp-iVJ0xXFwTm6VwcLZ4Re2j-9JmGNk8w');
    expect(hashInvoiceOrderToken(secretKey, token)).toBe(
      'aRHpowA4Rird98YCbdzGFoyVFjJpGFcrJs1KZDC4pkM',
    );
  });
});

describe('signed links already sent', () => {
  it('to replace a lost licence key', () => {
    const licence = { id: '0b6f5a3e-8a57-4bd9-9c3c-0f4d1a2b3c4d', keyHash: 'a'.repeat(64) };
    const sent =
      '0b6f5a3e-8a57-4bd9-9c3c-0f4d1a2b3c4d.1768557600._lbPIg6aseUK5pm4wxw_hUDx2w0vtQdD0TQeuNO23kw';
    expect(createKeyReplacementToken(secretKey, licence, now)).toBe(sent);
    expect(verifyKeyReplacementToken(secretKey, sent, licence, now)).toBe(true);
  });

  it('to the billing portal', () => {
    const sent =
      'eyJ0IjoiTk1NZjRiWDI3M0JzbHpOUTRxTkJtUSIsImwiOiIwYjdjMmYxZS00YTNkLTRjNWItOWU4Zi03YTZiNWM0ZDNlMmYiLCJjIjoiY3VzX0EiLCJlIjoxNzY4NTU3NjAwfQ.Q_9y_uRUvsvxdY_UsXw69c11wQngUpKPMxJPZWG0Z_g';
    expect(verifyPortalToken(secretKey, sent, now)).toEqual({
      ok: true,
      tokenId: 'NMMf4bX273BslzNQ4qNBmQ',
      licenceId: '0b7c2f1e-4a3d-4c5b-9e8f-7a6b5c4d3e2f',
      customerId: 'cus_A',
      expiresAt: new Date('2026-01-16T10:00:00Z'),
    });
    // A new link signs its payload the same way: same payload shape, same signature length.
    const created = createPortalToken({
      secretKey,
      licenceId: '0b7c2f1e-4a3d-4c5b-9e8f-7a6b5c4d3e2f',
      customerId: 'cus_A',
      now,
    });
    expect(created.token).toMatch(/^eyJ0Ijoi[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}$/);
    const forged = `${sent.split('.')[0] ?? ''}.${'A'.repeat(43)}`;
    expect(verifyPortalToken(secretKey, forged, now)).toEqual({ ok: false, reason: 'Forged' });
  });
});
