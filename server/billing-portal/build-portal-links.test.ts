import { describe, expect, it } from 'vitest';
import {
  billingPortalLinksEmail,
  describeSubscription,
} from '../email/templates/billing-portal.ts';
import {
  BILLING_PORTAL_LINK_PATH,
  buildPortalLinks,
  MAX_PORTAL_LINKS,
  MAX_SUBSCRIPTIONS_PER_LINK,
  type ManageableSubscription,
  type PortalLink,
} from './build-portal-links.ts';
import { verifyPortalToken } from './portal-token.ts';

const secretKey = 'build-portal-links-test-secret-0123456789';
const now = new Date('2026-01-15T10:00:00Z');
const accountApiUrl = 'https://account.example.test';
const publicBaseUrl = 'https://www.example.test';

let sequence = 0;
function subscription(overrides: Partial<ManageableSubscription> = {}): ManageableSubscription {
  sequence++;
  return {
    licenceId: `00000000-0000-4000-8000-${String(sequence).padStart(12, '0')}`,
    customerId: 'cus_A',
    type: 'Paid',
    status: 'Active',
    edition: 'Pro',
    quantity: 5,
    keyHint: `K${String(sequence).padStart(3, '0')}`,
    billingPeriod: 'monthly',
    currency: 'USD',
    createdAt: new Date(Date.UTC(2025, 0, 1) + sequence * 86_400_000),
    ...overrides,
  };
}

function tokenOf(link: PortalLink) {
  const url = new URL(link.url);
  expect(`${url.origin}${url.pathname}`).toBe(`${accountApiUrl}${BILLING_PORTAL_LINK_PATH}`);
  return verifyPortalToken(secretKey, url.searchParams.get('token') ?? '', now);
}

function build(subscriptions: ManageableSubscription[]) {
  return buildPortalLinks({ secretKey, accountApiUrl, now, subscriptions });
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

describe('the billing-portal links e-mail', () => {
  it('names each subscription by plan, billing, key ending and state, never the key', () => {
    expect(describeSubscription(subscription({ keyHint: 'Q7RX' }))).toBe(
      'Orgsmith Pro, 5 orgs · billed monthly in USD · key ending in Q7RX',
    );
    expect(
      describeSubscription(
        subscription({
          edition: 'Enterprise',
          quantity: 25,
          billingPeriod: 'yearly',
          currency: 'EUR',
          keyHint: 'AB12',
          status: 'Deactivated',
        }),
      ),
    ).toBe(
      'Orgsmith Enterprise · billed yearly in EUR · key ending in AB12 · deactivated, payment due',
    );
    expect(
      describeSubscription(
        subscription({ type: 'Free', edition: 'Starter', quantity: 3, keyHint: 'ZZ99' }),
      ),
    ).toBe('Orgsmith Starter · free · key ending in ZZ99');
    expect(
      describeSubscription(
        subscription({ billingPeriod: null, currency: null, keyHint: 'NN00', status: 'Cancelled' }),
      ),
    ).toBe('Orgsmith Pro, 5 orgs · key ending in NN00 · cancelled');
  });

  it('keeps the one-link e-mail as it was, with its subscription named', () => {
    const built = build([subscription({ keyHint: 'ONE1' })]);
    const mail = billingPortalLinksEmail({ ...built, publicBaseUrl });
    expect(mail.subject).toBe('Your link to the Orgsmith billing portal');
    expect(mail.text).toContain(
      'here is the link to manage your Orgsmith subscription. In the billing portal you can upgrade, downgrade or cancel your subscription and edit your billing information.',
    );
    expect(mail.text).toContain(
      'Subscription: Orgsmith Pro, 5 orgs · billed monthly in USD · key ending in ONE1',
    );
    expect(mail.text).toContain(`Open the billing portal:\n${built.links[0]?.url}`);
    expect(mail.text).toContain('The link works once and until 16 January 2026, 10:00 UTC.');
    expect(mail.text).not.toContain('Billing account');
  });

  it('gives each billing account a heading, its subscriptions and its own button', () => {
    const built = build([
      subscription({ customerId: 'cus_A', keyHint: 'AAA1' }),
      subscription({
        customerId: 'cus_B',
        keyHint: 'BBB2',
        currency: 'EUR',
        billingPeriod: 'yearly',
      }),
    ]);
    const [linkB, linkA] = built.links;
    const mail = billingPortalLinksEmail({ ...built, publicBaseUrl });
    expect(mail.subject).toBe('Your links to the Orgsmith billing portal');
    expect(mail.text).toContain('billed to 2 separate billing accounts');
    const first = mail.text.indexOf('Billing account 1');
    const second = mail.text.indexOf('Billing account 2');
    expect(first).toBeGreaterThan(0);
    expect(second).toBeGreaterThan(first);
    const accountOne = mail.text.slice(first, second);
    const accountTwo = mail.text.slice(second);
    expect(accountOne).toContain('key ending in BBB2');
    expect(accountOne).toContain('billed yearly in EUR');
    expect(accountOne).toContain(`Open the billing portal of account 1:\n${linkB?.url}`);
    expect(accountTwo).toContain('key ending in AAA1');
    expect(accountTwo).toContain(`Open the billing portal of account 2:\n${linkA?.url}`);
    expect(mail.text).toContain('Each link works once and until 16 January 2026, 10:00 UTC.');
    expect(mail.html).toContain('Billing account 2</h2>');
    expect(mail.html).toContain(`href="${linkA?.url}"`);
  });

  it('says how many accounts and subscriptions did not fit', () => {
    const many = Array.from({ length: MAX_PORTAL_LINKS + 2 }, (_, i) =>
      subscription({ customerId: `cus_${i}` }),
    );
    const crowded = Array.from({ length: MAX_SUBSCRIPTIONS_PER_LINK + 1 }, () =>
      subscription({ customerId: 'cus_CROWDED' }),
    );
    const mail = billingPortalLinksEmail({ ...build([...many, ...crowded]), publicBaseUrl });
    expect(mail.text).toContain(`billed to ${MAX_PORTAL_LINKS + 3} separate billing accounts`);
    expect(mail.text).toContain(
      `3 more billing accounts are not listed: one e-mail holds at most ${MAX_PORTAL_LINKS} links`,
    );
    expect(mail.text).toContain(
      'This account has 1 more subscription; the billing portal shows them all.',
    );
  });
});
