import * as z from 'zod/mini';
import type { Edition } from '../pricing/index.ts';

/**
 * "Keep using your trial key" (decision 213): a card purchase with the address of a trial that
 * names no key gets a new key; its e-mail links to this page, whose button moves the
 * subscription onto the trial licence. Only the POST acts, so mail scanners change nothing.
 */
export const KEEP_TRIAL_KEY_PAGE = '/keep-trial-key';
/** `POST` with the link's token: the trial becomes the subscription's licence. */
export const KEEP_TRIAL_KEY_PATH = '/account/v1/licenses/keep-trial-key';
/** How long the e-mailed link works. */
export const KEEP_TRIAL_LINK_DAYS = 30;

export const keepTrialKeyRequestSchema = z.strictObject({
  token: z
    .string({ error: 'token is required.' })
    .check(z.minLength(1, 'token is required.'), z.maxLength(1000, 'token is too long.')),
});

/** The facts the page shows and the POST answers: which key stays and which one stops. */
export const keepTrialKeyFactsSchema = z
  .object({
    email: z.string().check(z.describe('The trial’s address, where the confirmation went.')),
    edition: z.enum(['Starter', 'Pro', 'Enterprise']),
    quantity: z.int(),
    trialKeyHint: z
      .string()
      .check(z.describe('The last group of the trial key, which now carries the subscription.')),
    newKeyHint: z
      .string()
      .check(z.describe('The last group of the key e-mailed at purchase, now revoked.')),
  })
  .register(z.globalRegistry, { id: 'TrialKeyKept' });

export type KeepTrialKeyFacts = z.output<typeof keepTrialKeyFactsSchema>;
const editionMatches: Edition extends KeepTrialKeyFacts['edition'] ? true : false = true;
void editionMatches;

/** What the page knows about its link, read without using it. */
export type KeepTrialLinkStatus =
  | { state: 'missing' }
  /** Forged, expired, used, or the trial was converted or revoked meanwhile. */
  | { state: 'invalid' }
  | ({ state: 'open'; validUntil: string } & KeepTrialKeyFacts);

export const keepTrialKeyMessages = {
  intro:
    'You bought a subscription with the address of your trial. You can keep using your trial key for it instead of the new key we e-mailed.',
  button: 'Keep using my trial key',
  working: 'Moving your subscription…',
  missing:
    'This page needs the link from your licence e-mail. Open the “Keep using your trial key” link in that e-mail.',
  linkInvalid:
    'This link does not work (any more): it has expired or was used, or the trial was converted or revoked meanwhile. Nothing was changed; the key from your purchase e-mail keeps working.',
  failed: 'Something went wrong and nothing was changed. Please try again in a minute.',
} as const;
