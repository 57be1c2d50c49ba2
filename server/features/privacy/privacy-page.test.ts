import { describe, expect, it } from 'vitest';
import { privacyPolicy } from '#app/content/legal/privacy.ts';
import { retentionPeriods as R } from './retention-policy.ts';

/** Each section's text, paragraphs and list items joined. */
const sections = new Map(
  privacyPolicy.sections.map((section) => [
    section.id,
    section.blocks
      .flatMap((block) => (block.kind === 'paragraph' ? [block.text] : block.items))
      .join(' '),
  ]),
);

/** What /privacy must say of each period of the retention policy, and where (decision 191). */
const statements: ReadonlyArray<[section: string, phrase: RegExp]> = [
  ['licences', new RegExp(`delete each one ${R.idleOrgDays} days after that org last checked`)],
  ['licences', /keyed hash of the address[^.]*also after the licence is deleted/],
  [
    'contact-messages',
    new RegExp(`We delete them ${R.contactMessageDays} days after they reach us`),
  ],
  ['payments', new RegExp(`about a payment or subscription for ${R.paymentEventDays} days`)],
  ['payments', new RegExp(`booking records are kept for ${R.invoiceYears} years`)],
  [
    'payments',
    new RegExp(
      `as commercial letters, for ${R.commercialLetterYears} years, each counted from the end of the calendar year`,
    ),
  ],
  ['payments', new RegExp(`never confirmed is deleted ${R.unconfirmedOrderDays} days after`)],
  [
    'email',
    new RegExp(
      `for ${R.emailDays} days after it was sent, or until the last licence of that address is deleted`,
    ),
  ],
  ['server-logs', new RegExp(`deleted within ${R.serverLogDays} days`)],
  [
    'retention',
    new RegExp(
      `for ${R.licenceReactivationMonths} months[^.]*\\. After that it is marked for deletion and deleted within up to ${R.licenceDeletionMonths} further month`,
    ),
  ],
  [
    'rights',
    new RegExp(
      `keep that record for ${R.privacyRequestYears} years after the end of the calendar year`,
    ),
  ],
];

describe('/privacy says what the retention policy does', () => {
  it.each(statements)('%s: %s', (section, phrase) => {
    expect(sections.get(section)).toMatch(phrase);
  });

  it('names no period the policy does not have', () => {
    const periods: Record<string, number[]> = {
      day: [
        R.idleOrgDays,
        R.contactMessageDays,
        R.paymentEventDays,
        R.unconfirmedOrderDays,
        R.emailDays,
        R.serverLogDays,
      ],
      month: [R.licenceReactivationMonths, R.licenceDeletionMonths],
      year: [R.invoiceYears, R.commercialLetterYears, R.privacyRequestYears],
    };
    for (const [id, text] of sections) {
      // Cookies live in the visitor's browser: their lifetime is the cookie's, not ours.
      if (id === 'cookies') continue;
      for (const match of text.matchAll(/(\d+) (?:further )?(day|month|year)s?\b/g)) {
        expect(periods[match[2] ?? ''], `${id}: "${match[0]}"`).toContain(Number(match[1]));
      }
    }
  });
});
