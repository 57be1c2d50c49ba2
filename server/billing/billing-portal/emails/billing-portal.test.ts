import { describe, expect, it } from 'vitest';
import {
  buildPortalLinks,
  MAX_PORTAL_LINKS,
  MAX_SUBSCRIPTIONS_PER_LINK,
  type ManageableSubscription,
} from '../build-portal-links.ts';
import { subscription } from '../manageable-subscription.fixture.ts';
import { describeSubscription } from '../describe-subscription.ts';
import { billingPortalLinksEmail } from './billing-portal.ts';

const secretKey = 'billing-portal-email-test-secret-0123456789';
const now = new Date('2026-01-15T10:00:00Z');
const publicBaseUrl = 'https://www.example.test';

function build(subscriptions: ManageableSubscription[]) {
  return buildPortalLinks({ secretKey, publicBaseUrl, now, subscriptions });
}

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
