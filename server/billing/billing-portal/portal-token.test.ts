import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  createPortalToken,
  PORTAL_TOKEN_TTL_MS,
  portalTokenExpiry,
  verifyPortalToken,
} from './portal-token.ts';

const secretKey = 'portal-token-test-secret-key-0123456789';
const now = new Date('2026-01-15T10:00:00.750Z');
const licenceId = '0b7c2f1e-4a3d-4c5b-9e8f-7a6b5c4d3e2f';

function token(customerId = 'cus_A') {
  return createPortalToken({ secretKey, licenceId, customerId, now });
}

function payloadOf(value: string): Record<string, unknown> {
  const parsed: unknown = JSON.parse(
    Buffer.from(value.split('.')[0] ?? '', 'base64url').toString(),
  );
  if (typeof parsed !== 'object' || parsed === null) throw new Error('not an object');
  return Object.fromEntries(Object.entries(parsed));
}

/** Re-signs nothing: a payload changed after signing must fail the signature check. */
function withPayload(value: string, change: Record<string, unknown>): string {
  const [, signature] = value.split('.');
  const payload = Buffer.from(JSON.stringify({ ...payloadOf(value), ...change })).toString(
    'base64url',
  );
  return `${payload}.${signature}`;
}

describe('billing-portal tokens', () => {
  it('carries the token id, licence, customer and an expiry 24 hours on, in whole seconds', () => {
    const created = token();
    expect(created.expiresAt).toEqual(new Date('2026-01-16T10:00:00Z'));
    expect(portalTokenExpiry(now)).toEqual(created.expiresAt);
    expect(PORTAL_TOKEN_TTL_MS).toBe(86_400_000);
    expect(payloadOf(created.token)).toEqual({
      t: created.tokenId,
      l: licenceId,
      c: 'cus_A',
      e: created.expiresAt.getTime() / 1000,
    });
    expect(verifyPortalToken(secretKey, created.token, now)).toEqual({
      ok: true,
      tokenId: created.tokenId,
      licenceId,
      customerId: 'cus_A',
      expiresAt: created.expiresAt,
    });
  });

  it('gives every token its own id, even for the same customer and moment', () => {
    const ids = new Set(Array.from({ length: 50 }, () => token().tokenId));
    expect(ids.size).toBe(50);
    expect([...ids].every((id) => /^[\w-]{22}$/.test(id))).toBe(true);
  });

  it('works until one second before its expiry, not at it', () => {
    const created = token();
    const justBefore = new Date(created.expiresAt.getTime() - 1);
    expect(verifyPortalToken(secretKey, created.token, justBefore).ok).toBe(true);
    expect(verifyPortalToken(secretKey, created.token, created.expiresAt)).toEqual({
      ok: false,
      reason: 'Expired',
    });
  });

  it('refuses a token whose customer, licence or expiry was changed after signing', () => {
    const created = token('cus_A');
    for (const change of [
      { c: 'cus_B' },
      { l: '11111111-2222-4333-8444-555555555555' },
      { e: 4102444800 },
    ]) {
      expect(verifyPortalToken(secretKey, withPayload(created.token, change), now)).toEqual({
        ok: false,
        reason: 'Forged',
      });
    }
  });

  it('refuses a token signed with another secret', () => {
    const other = createPortalToken({
      secretKey: 'another-secret-key-0123456789abcdef',
      licenceId,
      customerId: 'cus_A',
      now,
    });
    expect(verifyPortalToken(secretKey, other.token, now)).toEqual({
      ok: false,
      reason: 'Forged',
    });
  });

  it.each([
    ['empty', ''],
    ['without a signature', 'abc'],
    ['with three parts', 'a.b.c'],
  ])('calls a token %s malformed', (_label, value) => {
    expect(verifyPortalToken(secretKey, value, now)).toEqual({ ok: false, reason: 'Malformed' });
  });

  it('calls a well-signed payload of the wrong shape malformed (e.g. a link without customer)', () => {
    const signed = (payload: object) => {
      const encoded = Buffer.from(JSON.stringify(payload)).toString('base64url');
      const signature = createHmac('sha256', secretKey)
        .update(`billing-portal-token:${encoded}`)
        .digest('base64url');
      return `${encoded}.${signature}`;
    };
    const e = Math.floor(now.getTime() / 1000) + 3600;
    for (const payload of [
      { t: 'a'.repeat(22), l: licenceId, e },
      { t: 'a'.repeat(22), l: licenceId, c: '', e },
      { t: 'a'.repeat(22), l: 'not-a-uuid', c: 'cus_A', e },
      { t: 'a'.repeat(22), l: licenceId, c: 'cus_A', e, extra: 1 },
    ]) {
      expect(verifyPortalToken(secretKey, signed(payload), now)).toEqual({
        ok: false,
        reason: 'Malformed',
      });
    }
  });
});
