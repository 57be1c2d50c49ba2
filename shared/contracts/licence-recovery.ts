import * as z from 'zod/mini';
import { emailAddressField } from './fields.ts';

/** `POST /account/v1/licenses/resend`: the "Lost your licence key?" form. */
export const lostKeyRequestSchema = z.strictObject({ emailAddress: emailAddressField });

export type LostKeyRequest = z.output<typeof lostKeyRequestSchema>;

/** `POST /account/v1/licenses/replace-key`: the link of the lost-key e-mail. */
export const replaceKeyRequestSchema = z.strictObject({
  token: z
    .string({ error: 'token is required.' })
    .check(z.minLength(1, 'token is required.'), z.maxLength(200, 'token is too long.')),
});

export const LOST_KEY_PATH = '/account/v1/licenses/resend';
export const REPLACE_KEY_PATH = '/account/v1/licenses/replace-key';
/** The site page the lost-key e-mail links to, with `?token=…`. */
export const REPLACE_KEY_PAGE = '/replace-licence-key';

/** The texts of the lost-key form and the key replacement page. */
export const lostKeyMessages = {
  heading: 'Lost your licence key?',
  intro:
    'Enter the e-mail address your licence was issued to. We will send you a link to get a new key.',
  success:
    "If we hold licences for this address, we have sent it an e-mail with a link to get a new key. If you don't see it in your inbox, make sure you check your junk mail folder too.",
  rateLimited:
    'You have asked several times in a short while. Please wait a while, then try again. If the problem persists, please contact our technical support.',
  replaced: (sentTo: string) =>
    `Done: your new licence key is on its way to ${sentTo}. The old key no longer works — use the new one wherever you entered the old one.`,
  linkInvalid:
    'This link has expired or was already used. Links to replace a key work once and for 24 hours: request a new one below.',
} as const;
