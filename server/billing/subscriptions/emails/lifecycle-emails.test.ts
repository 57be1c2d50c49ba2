import { describe, expect, it } from 'vitest';
import { licenceKeyEmail, lifecycleEmail, trialConvertedEmail } from './lifecycle-emails.ts';
import type { LifecycleEvent } from '../lifecycle-rules.ts';

const publicBaseUrl = 'https://orgsmith.example';
const licence = {
  email: 'ops@acme.test',
  edition: 'Pro' as const,
  quantity: 10,
  keyHint: 'Q7RX',
  paidUntil: new Date('2027-01-15T10:00:00Z'),
};
const key = 'ORGS-ABCD-EFGH-JKMN-PQRS-TVWX-YZ01-2345';

describe('lifecycle e-mails', () => {
  it('puts the key only in the purchase e-mail, with the plan and the licence address', () => {
    const mail = licenceKeyEmail({
      key,
      licence,
      renewsAt: licence.paidUntil,
      publicBaseUrl,
      accountBaseUrl: 'https://account.orgsmith.example',
    });
    expect(mail.subject).toBe('Your Orgsmith Pro licence key');
    expect(mail.text).toContain(key);
    expect(mail.html).toContain(key);
    expect(mail.text).toContain('Orgsmith Pro, 10 orgs');
    expect(mail.text).toContain('15 January 2027');
    expect(mail.text).toContain('Licence e-mail address: ops@acme.test');
    // The licence page, where the orgs and invoices are (decision 229).
    expect(mail.text).toContain(`${publicBaseUrl}/licences`);
    expect(mail.html).toContain(`href="${publicBaseUrl}/licences"`);
    // The access-token example calls the account service, which may live on its own host.
    expect(mail.text).toContain('curl -X POST https://account.orgsmith.example/account/v1/');
    expect(mail.text).not.toContain(`${publicBaseUrl}/account/v1/`);
    expect(mail.text).toContain('Paid until: 15 January 2027 (renews automatically)');
    const converted = trialConvertedEmail({ licence, renewsAt: licence.paidUntil, publicBaseUrl });
    expect(converted.subject).toBe('Your Orgsmith trial is now Orgsmith Pro, 10 orgs');
    expect(converted.text).toContain('ends in Q7RX');
    expect(converted.text).not.toMatch(/ORGS-/);
  });

  it('says how to use the key: the variable set once, an access token for CI, the docs', () => {
    const mail = licenceKeyEmail({
      key,
      licence,
      renewsAt: licence.paidUntil,
      publicBaseUrl,
      accountBaseUrl: 'https://account.orgsmith.example',
    });
    expect(mail.text).toContain(`export ORGSMITH_LICENSE_KEY=${key}`);
    expect(mail.text).toContain(`setx ORGSMITH_LICENSE_KEY ${key}`);
    // The argument by name, as the download page's CI examples pass it (decision 217).
    expect(mail.text).toContain('with its --access-token argument');
    expect(mail.text).toContain(
      'orgsmith flow:out --environment uat --checkOnly --access-token "$ORGSMITH_ACCESS_TOKEN"',
    );
    expect(mail.text).toContain('/account/v1/access-tokens');
    expect(mail.text).toContain('https://docs.orgsmith.io');
    // No invented command: auth:key:save takes the credentials' encryption key, not a licence.
    expect(mail.text).not.toMatch(/auth:key/);
  });

  it('never calls an unpaid invoice order paid: the invoice, its due date, what if unpaid', () => {
    const mail = licenceKeyEmail({
      key,
      licence,
      renewsAt: new Date('2027-11-27T10:00:00Z'),
      publicBaseUrl,
      accountBaseUrl: publicBaseUrl,
      openInvoice: { number: 'INV-2026-00002', dueAt: new Date('2026-12-27T10:00:00Z') },
    });
    expect(mail.text).not.toMatch(/paid until/i);
    expect(mail.text).toContain('Invoice: INV-2026-00002, unpaid, due 27 December 2026');
    expect(mail.text).toContain('Valid until: 27 November 2027 once the invoice is paid');
    expect(mail.text).toContain('still unpaid on 10 January 2027, 14 days after its due date');
    const free = licenceKeyEmail({
      key,
      licence: { ...licence, edition: 'Starter', quantity: 3 },
      renewsAt: licence.paidUntil,
      publicBaseUrl,
      accountBaseUrl: publicBaseUrl,
    });
    expect(free.text).toContain('Renews: 15 January 2027');
    expect(free.text).not.toMatch(/paid until/i);
  });

  const cases: Array<[LifecycleEvent, string, string, string]> = [
    [
      { kind: 'PaymentFailed' },
      'payment-failed',
      'Your Orgsmith payment failed',
      '/?modal=portal-access',
    ],
    [
      {
        kind: 'Deactivated',
        reactivateBy: new Date('2026-05-30T10:00:00Z'),
        unpaidInvoice: false,
      },
      'licence-deactivated',
      'Your Orgsmith licence was deactivated',
      '30 May 2026',
    ],
    [
      { kind: 'Deactivated', reactivateBy: new Date('2026-05-30T10:00:00Z'), unpaidInvoice: true },
      'licence-deactivated',
      'Your Orgsmith licence was deactivated',
      'the invoice for your Orgsmith subscription is still unpaid two weeks after its due date',
    ],
    [
      { kind: 'Reactivated' },
      'licence-reactivated',
      'Your Orgsmith licence is active again',
      '15 January 2027',
    ],
    [
      { kind: 'DeletionScheduled', deleteAt: new Date('2026-06-30T10:00:00Z'), reason: 'lapsed' },
      'licence-deletion-scheduled',
      'Your Orgsmith licence will be deleted on 30 June 2026',
      'within two months of its deactivation',
    ],
    [
      { kind: 'CancellationConfirmed', effectiveAt: licence.paidUntil, immediate: false },
      'cancellation-confirmed',
      'Your Orgsmith subscription is cancelled',
      'stays valid until the end of the billing period you paid for, 15 January 2027',
    ],
    [
      { kind: 'CancellationConfirmed', effectiveAt: licence.paidUntil, immediate: true },
      'cancellation-confirmed',
      'Your Orgsmith subscription is cancelled',
      'the licence key no longer works',
    ],
  ];
  for (const [event, kind, subject, detail] of cases) {
    it(`${event.kind}${'immediate' in event && event.immediate ? ' (immediate)' : ''}`, () => {
      const mail = lifecycleEmail(event, licence, publicBaseUrl);
      expect(mail).toMatchObject({ kind, to: 'ops@acme.test', subject });
      expect(mail?.text).toContain(detail);
      expect(mail?.text).toContain('ends in Q7RX');
      expect(mail?.text).toContain('Licence e-mail address: ops@acme.test');
      expect(mail?.text).not.toMatch(/ORGS-/);
    });
  }

  it('sends nothing for a plan change (the provider’s receipt covers it)', () => {
    const event: LifecycleEvent = {
      kind: 'PlanChanged',
      from: { edition: 'Pro', quantity: 10 },
      to: { edition: 'Pro', quantity: 12 },
    };
    expect(lifecycleEmail(event, licence, publicBaseUrl)).toBeNull();
  });
});
