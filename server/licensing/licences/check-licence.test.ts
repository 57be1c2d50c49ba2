import { describe, expect, it } from 'vitest';
import { checkLicence, type LicenceState, type OrgUsage } from './check-licence.ts';

const now = new Date('2026-01-15T10:00:00Z');
const past = new Date('2026-01-01T00:00:00Z');
const future = new Date('2026-06-01T00:00:00Z');

const healthy: LicenceState = {
  type: 'Paid',
  productId: 'orgsmith-cli',
  expiresAt: future,
  deactivatedAt: null,
  deletionScheduledAt: null,
  revokedAt: null,
  suspended: false,
};
const noOrg: OrgUsage = { orgId: null, known: false, rank: 0, inUse: 0, limit: 4 };
const fullQuota: OrgUsage = {
  orgId: '00D000000000001AAA',
  known: false,
  rank: 0,
  inUse: 4,
  limit: 4,
};

/** A licence that fails every check, so each step of the precedence can be peeled off. */
const broken: LicenceState = {
  type: 'Paid',
  productId: 'other-product',
  expiresAt: past,
  deactivatedAt: past,
  deletionScheduledAt: past,
  revokedAt: past,
  suspended: false,
};

describe('checkLicence', () => {
  it('reports the checks in their order of precedence', () => {
    const code = (licence: LicenceState | undefined, orgs = fullQuota) =>
      checkLicence(licence, 'orgsmith-cli', orgs, now).code;
    expect(code(undefined)).toBe('NOT_FOUND');
    expect(code(broken)).toBe('PRODUCT_MISMATCH');
    const rightProduct = { ...broken, productId: 'orgsmith-cli' };
    expect(code(rightProduct)).toBe('PENDING_DELETION');
    const notScheduled = { ...rightProduct, deletionScheduledAt: null };
    expect(code(notScheduled)).toBe('DEACTIVATED');
    const revokedOnly = { ...notScheduled, deactivatedAt: null };
    expect(code(revokedOnly)).toBe('DEACTIVATED');
    expect(checkLicence(revokedOnly, 'orgsmith-cli', fullQuota, now).detail).toMatch(/revoked/);
    expect(checkLicence(notScheduled, 'orgsmith-cli', fullQuota, now).detail).toMatch(/revoked/);
    // A suspension answers the same code, in its own words (decision 248).
    const suspended = { ...revokedOnly, suspended: true };
    expect(code(suspended)).toBe('DEACTIVATED');
    expect(checkLicence(suspended, 'orgsmith-cli', fullQuota, now).detail).toMatch(
      /suspended by Orgsmith support/,
    );
    const active = { ...revokedOnly, revokedAt: null };
    expect(code(active)).toBe('EXPIRED');
    const current = { ...active, expiresAt: future };
    expect(code(current)).toBe('TOO_MANY_ORGS');
    expect(code(current, noOrg)).toBe('VALID');
  });

  it('ignores lifecycle dates that lie in the future', () => {
    const scheduled = { ...healthy, deactivatedAt: future, deletionScheduledAt: future };
    expect(checkLicence(scheduled, 'orgsmith-cli', noOrg, now).code).toBe('VALID');
  });

  it('expires exactly at the expiry instant', () => {
    const atNow = { ...healthy, expiresAt: now };
    expect(checkLicence(atNow, 'orgsmith-cli', noOrg, now)).toEqual({
      code: 'EXPIRED',
      detail: 'This licence expired on 2026-01-15.',
    });
    const trial = { ...atNow, type: 'Trial' as const };
    expect(checkLicence(trial, 'orgsmith-cli', noOrg, now).detail).toMatch(/trial licence expired/);
  });

  it('lets licences without an expiry run on', () => {
    expect(checkLicence({ ...healthy, expiresAt: null }, 'orgsmith-cli', noOrg, now).code).toBe(
      'VALID',
    );
  });

  it('admits new orgs up to the limit and keeps known orgs working beyond it', () => {
    const check = (orgs: OrgUsage) => checkLicence(healthy, 'orgsmith-cli', orgs, now).code;
    expect(check({ ...fullQuota, inUse: 3 })).toBe('VALID');
    expect(check(fullQuota)).toBe('TOO_MANY_ORGS');
    expect(check({ ...fullQuota, known: true, rank: 3, inUse: 9 })).toBe('VALID');
    expect(check({ ...fullQuota, limit: null, inUse: 400 })).toBe('VALID');
  });

  it('keeps a known org only while fewer orgs than the quota were used more recently', () => {
    // After a shrink from 12 orgs to 3 (invariant 1): the three used last keep working.
    const shrunk = { ...fullQuota, known: true, inUse: 12, limit: 3 };
    const check = (rank: number) =>
      checkLicence(healthy, 'orgsmith-cli', { ...shrunk, rank }, now).code;
    expect([0, 1, 2].map(check)).toEqual(['VALID', 'VALID', 'VALID']);
    expect([3, 4, 11].map(check)).toEqual(['TOO_MANY_ORGS', 'TOO_MANY_ORGS', 'TOO_MANY_ORGS']);
    expect(checkLicence(healthy, 'orgsmith-cli', { ...shrunk, rank: 3 }, now).detail).toBe(
      'This licence covers 3 Salesforce orgs and 3 others were used more recently. An org frees its slot 30 days after it last validated; to use org 00D000000000001AAA now, upgrade the licence.',
    );
  });

  it('names the quota, the refused org and how to free a slot in the detail', () => {
    expect(checkLicence(healthy, 'orgsmith-cli', fullQuota, now).detail).toBe(
      'This licence covers 4 Salesforce orgs and all are in use. An org frees its slot 30 days after it last validated; to use org 00D000000000001AAA now, upgrade the licence.',
    );
  });

  it('does not describe a licence of another product', () => {
    const result = checkLicence(broken, 'orgsmith-cli', noOrg, now);
    expect(result.detail).not.toMatch(/other-product|expired|deactivated/i);
  });
});
