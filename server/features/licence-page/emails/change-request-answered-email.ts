import { LICENCE_PAGE } from '#shared/contracts/licence-page.ts';
import { siteConfig } from '#shared/site-config.ts';
import { renderEmail, type RenderedEmail } from '#server/platform/email/render-email.ts';

const asked = {
  seats: (seats: number | null) => `change the number of seats to ${seats ?? '–'}`,
  plan: (_seats: number | null, edition: string | null) => `change the plan to ${edition ?? '–'}`,
  cancel: () => 'cancel the subscription',
} as const;

/**
 * The answer to a "Request a change" of the licence page (decision 236): done (the change was
 * made by our team) or declined, with the reason the operator gave, which the customer reads.
 */
export function changeRequestAnsweredEmail(input: {
  email: string;
  kind: 'seats' | 'plan' | 'cancel';
  seats: number | null;
  edition: string | null;
  outcome: 'done' | 'declined';
  reason: string;
  publicBaseUrl: string;
}): RenderedEmail {
  const product = siteConfig.productName;
  const what = asked[input.kind](input.seats, input.edition);
  const done = input.outcome === 'done';
  return renderEmail({
    subject: done
      ? `Your ${product} subscription was changed`
      : `Your ${product} change request was declined`,
    publicBaseUrl: input.publicBaseUrl,
    blocks: [
      { kind: 'paragraph', text: 'Hello,' },
      {
        kind: 'paragraph',
        text: done
          ? `you asked us to ${what}. It is done; the next invoice shows it.`
          : `you asked us to ${what}. We did not make this change.`,
      },
      { kind: 'quote', text: input.reason },
      { kind: 'button', label: 'Open my licences', url: `${input.publicBaseUrl}${LICENCE_PAGE}` },
      {
        kind: 'note',
        text: `Questions? Reply to this e-mail or write to ${siteConfig.supportEmail}.`,
      },
    ],
  });
}
