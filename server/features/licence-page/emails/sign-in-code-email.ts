import { SIGN_IN_CODE_MINUTES } from '#shared/contracts/licence-page.ts';
import { siteConfig } from '#shared/site-config.ts';
import { renderEmail, type RenderedEmail } from '#server/platform/email/render-email.ts';

/**
 * The licence page's sign-in (decision 229): a 6-digit code to type on the page and a link whose
 * page has one "Continue" button — opening the link alone (as mail scanners do) signs no one in.
 */
export function signInCodeEmail(input: {
  email: string;
  code: string;
  continueUrl: string;
  publicBaseUrl: string;
}): RenderedEmail {
  const product = siteConfig.productName;
  return renderEmail({
    subject: `Your ${product} sign-in code: ${input.code}`,
    publicBaseUrl: input.publicBaseUrl,
    blocks: [
      { kind: 'paragraph', text: 'Hello,' },
      {
        kind: 'paragraph',
        text: `someone — hopefully you — asked to see the ${product} licences of ${input.email}. Enter this code on the licences page:`,
      },
      { kind: 'code', text: input.code },
      { kind: 'paragraph', text: 'Or open the page from here and press “Continue”:' },
      { kind: 'button', label: 'Open my licences', url: input.continueUrl },
      {
        kind: 'note',
        text: `The code and the link work once, for ${SIGN_IN_CODE_MINUTES} minutes. If you did not ask for this, ignore this e-mail: nobody can sign in without the code.`,
      },
    ],
  });
}
