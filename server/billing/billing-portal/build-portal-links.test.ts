import { describe, expect, it } from 'vitest';
import { BILLING_PORTAL_PAGE } from '#shared/contracts/billing-portal.ts';
import {
  buildPortalLinks,
  MAX_PORTAL_LINKS,
  MAX_SUBSCRIPTIONS_PER_LINK,
  type ManageableSubscription,
  type PortalLink,
} from './build-portal-links.ts';
import { subscription } from './manageable-subscription.fixture.ts';
import { verifyPortalToken } from './portal-token.ts';

const secretKey = 'build-portal-links-test-secret-0123456789';
const now = new Date('2026-01-15T10:00:00Z');
const publicBaseUrl = 'https://www.example.test';

function tokenOf(link: PortalLink) {
  const url = new URL(link.url);
  expect(`${url.origin}${url.pathname}`).toBe(`${publicBaseUrl}${BILLING_PORTAL_PAGE}`);
  return verifyPortalToken(secretKey, url.searchParams.get('token') ?? '', now);
}

function build(subscriptions: ManageableSubscription[]) {
  return buildPortalLinks({ secretKey, publicBaseUrl, now, subscriptions });
}

describe('buildPortalLinks', () => {
  it('makes one link per customer, naming the customer and its newest licence', () => {
    const olderA = subscription({ customerId: 'cus_A' });
    const b = subscription({ customerId: 'cus_B', currency: 'EUR', billingPeriod: 'yearly' });
    const newerA = subscription({ customerId: 'cus_A', edition: 'Enterprise', quantity: 25 });
    const built = build([olderA, b, newerA]);

    expect(built.links.map((link) => link.customerId)).toEqual(['cus_A', 'cus_B']);
    expect(built.links.map((link) => link.subscriptions)).toEqual([[newerA, olderA], [b]]);
    expect(built.moreCustomers).toBe(0);
    expect(built.expiresAt).toEqual(new Date('2026-01-16T10:00:00Z'));

    const [first, second] = built.links.map(tokenOf);
    expect(first).toMatchObject({ ok: true, licenceId: newerA.licenceId, customerId: 'cus_A' });
    expect(second).toMatchObject({ ok: true, licenceId: b.licenceId, customerId: 'cus_B' });
    // Each link is used up on its own.
    expect(first?.ok && second?.ok && first.tokenId !== second.tokenId).toBe(true);
  });

  it('puts customers with a live subscription before those whose subscriptions all ended', () => {
    const ended = subscription({ customerId: 'cus_ENDED', status: 'Cancelled' });
    const lapsed = subscription({ customerId: 'cus_LAPSED', status: 'Deactivated' });
    const newestEnded = subscription({ customerId: 'cus_ENDED2', status: 'Cancelled' });
    const live = subscription({ customerId: 'cus_LIVE' });
    const built = build([newestEnded, live, lapsed, ended]);
    expect(built.links.map((link) => link.customerId)).toEqual([
      'cus_LIVE',
      'cus_LAPSED',
      'cus_ENDED2',
      'cus_ENDED',
    ]);
  });

  it(`caps an e-mail at ${MAX_PORTAL_LINKS} links and counts the customers left out`, () => {
    const many = Array.from({ length: MAX_PORTAL_LINKS + 3 }, (_, i) =>
      subscription({ customerId: `cus_${i}` }),
    );
    const built = build(many);
    expect(built.links).toHaveLength(MAX_PORTAL_LINKS);
    expect(built.moreCustomers).toBe(3);
    // The newest customers are kept.
    expect(built.links[0]?.customerId).toBe(`cus_${MAX_PORTAL_LINKS + 2}`);
    expect(built.links.map((link) => link.customerId)).not.toContain('cus_0');
  });

  it(`names at most ${MAX_SUBSCRIPTIONS_PER_LINK} subscriptions beside a link`, () => {
    const many = Array.from({ length: MAX_SUBSCRIPTIONS_PER_LINK + 2 }, () => subscription());
    const [link] = build(many).links;
    expect(link?.subscriptions).toHaveLength(MAX_SUBSCRIPTIONS_PER_LINK);
    expect(link?.moreSubscriptions).toBe(2);
  });

  it('makes no link without subscriptions', () => {
    expect(build([])).toEqual({
      links: [],
      moreCustomers: 0,
      expiresAt: new Date('2026-01-16T10:00:00Z'),
    });
  });
});
