import * as z from 'zod/mini';
import { emailAddressField } from './fields.ts';

/** `POST /account/v1/licenses/resend`: the "Lost your licence key?" form. */
export const lostKeyRequestSchema = z.strictObject({ emailAddress: emailAddressField });

export type LostKeyRequest = z.output<typeof lostKeyRequestSchema>;

const linkTokenField = z
  .string({ error: 'token is required.' })
  .check(z.minLength(1, 'token is required.'), z.maxLength(200, 'token is too long.'));

/** More ids than a licence has tokens (at most 20 active): a bound, not a rule. */
const MAX_KEPT_TOKEN_IDS = 100;

/**
 * `POST /account/v1/licenses/replace-key`: the link of the lost-key e-mail, and the access tokens
 * to keep; every other token of the licence ends with the old key (decision 212).
 */
export const replaceKeyRequestSchema = z.strictObject({
  token: linkTokenField,
  keepTokenIds: z.optional(
    z
      .array(z.uuid('keepTokenIds must hold token ids (UUIDs).'))
      .check(
        z.maxLength(MAX_KEPT_TOKEN_IDS, 'keepTokenIds is too long.'),
        z.describe('Ids of the access tokens that keep working; none unless named.'),
      ),
  ),
});

export type ReplaceKeyRequest = z.output<typeof replaceKeyRequestSchema>;

/** `POST /account/v1/licenses/replace-key/tokens`: the tokens the replacement would end. */
export const replaceKeyTokensRequestSchema = z.strictObject({ token: linkTokenField });

/** An access token as the replacement page lists it: its name, never the token. */
export const replaceableTokenSchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    hint: z.string().check(z.describe('The last four characters of the token.')),
    createdAt: z.iso.datetime(),
    lastUsedAt: z.nullable(z.iso.datetime()),
  })
  .register(z.globalRegistry, { id: 'ReplaceableAccessToken' });

export const replaceKeyTokensSchema = z
  .object({ tokens: z.array(replaceableTokenSchema) })
  .register(z.globalRegistry, { id: 'ReplaceableAccessTokens' });

export type ReplaceableToken = z.output<typeof replaceableTokenSchema>;

/** The answer of a key replacement. */
export const keyReplacedSchema = z
  .object({
    sentTo: z.string().check(z.describe('The licence address, masked.')),
    endedTokens: z.number().check(z.describe('Access tokens that ended with the old key.')),
    keptTokens: z.number().check(z.describe('Access tokens that keep working.')),
  })
  .register(z.globalRegistry, { id: 'LicenceKeyReplaced' });

export const LOST_KEY_PATH = '/account/v1/licenses/resend';
export const REPLACE_KEY_PATH = '/account/v1/licenses/replace-key';
export const REPLACE_KEY_TOKENS_PATH = '/account/v1/licenses/replace-key/tokens';
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
  tokensLegend: 'Access tokens',
  tokensIntro:
    'These access tokens were made for this licence. They stop working with the old key unless you keep them: keep only the ones you made yourself.',
  keepToken: (name: string) => `Keep this token: ${name}`,
  tokensReplaced: (ended: number, kept: number) => {
    const count = (n: number) => (n === 1 ? '1 access token' : `${n} access tokens`);
    const endedText = ended === 0 ? '' : `${count(ended)} ended with the old key. `;
    const keptText =
      kept === 0 ? '' : `${count(kept)} you kept ${kept === 1 ? 'works' : 'work'} on. `;
    return `${endedText}${keptText}`.trim();
  },
} as const;
