import * as z from 'zod/mini';
import { emailAddressField } from './fields.ts';

/**
 * The customers' licence page (issue 42, decision 229): sign in with a code or link e-mailed to
 * an address that holds a licence, then see and manage what the address owns.
 */
export const LICENCE_PAGE = '/licences';
/** The page an e-mailed link opens: one "Continue" button, whose POST signs in. */
export const LICENCE_PAGE_CONTINUE = '/licences/continue';

export const LICENCE_PAGE_CODE_PATH = '/account/v1/licence-page/code';
export const LICENCE_PAGE_SIGN_IN_PATH = '/account/v1/licence-page/sign-in';
export const LICENCE_PAGE_SIGN_IN_LINK_PATH = '/account/v1/licence-page/sign-in-link';
export const LICENCE_PAGE_SIGN_OUT_PATH = '/account/v1/licence-page/sign-out';
export const LICENCE_PAGE_RELEASE_ORG_PATH = '/account/v1/licence-page/release-org';

/** The session cookie over HTTPS (decision 128's naming: `__Host-` where the browser allows it). */
export const LICENCE_SESSION_HOST_COOKIE = '__Host-orgsmith-licences';
/** The same cookie on plain-HTTP development origins, where `Secure` cookies cannot be set. */
export const LICENCE_SESSION_COOKIE = 'orgsmith-licences';

/** How long an e-mailed code and link work, how often a code may be tried, how long a session lasts. */
export const SIGN_IN_CODE_MINUTES = 15;
export const SIGN_IN_CODE_TRIES = 5;
export const LICENCE_SESSION_MINUTES = 60;

export const signInCodeRequestSchema = z.strictObject({ emailAddress: emailAddressField });

export const signInRequestSchema = z.strictObject({
  emailAddress: emailAddressField,
  code: z
    .string({ error: 'Enter the 6-digit code from the e-mail.' })
    .check(z.trim(), z.regex(/^\d{6}$/, 'Enter the 6-digit code from the e-mail.')),
});

export const signInLinkRequestSchema = z.strictObject({
  token: z
    .string({ error: 'token is required.' })
    .check(z.minLength(1, 'token is required.'), z.maxLength(200, 'token is too long.')),
});

export const signedInSchema = z
  .object({
    expiresAt: z.iso.datetime().check(z.describe('When the session ends (one hour).')),
  })
  .register(z.globalRegistry, { id: 'LicencePageSignedIn' });

export const licencePageReleaseOrgRequestSchema = z.strictObject({
  licenceId: z.uuid('licenceId must be a licence id.'),
  orgId: z
    .string({ error: 'orgId is required.' })
    .check(
      z.regex(/^00D[A-Za-z0-9]{12}(?:[A-Za-z0-9]{3})?$/, 'orgId must be a Salesforce org id.'),
    ),
});

export const licencePageReleasedSchema = z
  .object({
    orgId: z.string(),
    releasesLeft: z.number().check(z.describe('Releases left to this licence in the window.')),
    releasesResetAt: z.nullable(z.iso.datetime()),
  })
  .register(z.globalRegistry, { id: 'LicencePageOrgReleased' });

export const changeRequestKinds = ['seats', 'plan', 'cancel'] as const;
export const changeRequestEditions = ['Starter', 'Pro', 'Enterprise'] as const;
export const CHANGE_REQUEST_MESSAGE_MAX = 1000;
export const CHANGE_REQUEST_SEATS_MAX = 1000;

export const changeRequestViewSchema = z
  .object({
    id: z.uuid(),
    kind: z.enum(changeRequestKinds),
    seats: z.nullable(z.number()),
    edition: z.nullable(z.string()),
    status: z.enum(['open', 'done', 'declined']),
    createdAt: z.iso.datetime(),
    answeredAt: z.nullable(z.iso.datetime()),
    answerReason: z.nullable(z.string()),
  })
  .register(z.globalRegistry, { id: 'LicencePageChangeRequest' });

export type ChangeRequestView = z.output<typeof changeRequestViewSchema>;

export const licencePageTokenSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  hint: z.string(),
  createdAt: z.iso.datetime(),
  lastUsedAt: z.nullable(z.iso.datetime()),
});

/** How a licence is paid: by card (Stripe's portal), by invoice ("Request a change"), or not. */
export const licencePageBillingSchema = z.object({
  collection: z.enum(['card', 'invoice', 'none']),
  edition: z.nullable(z.string()),
  seats: z.nullable(z.number()),
  /** The newest change request of the subscription, open or answered. */
  changeRequest: z.nullable(changeRequestViewSchema),
});

export type LicencePageToken = z.output<typeof licencePageTokenSchema>;
export type LicencePageBilling = z.output<typeof licencePageBillingSchema>;

/** An org as its owner sees it: the id, and until when it holds a slot. */
export const licencePageOrgSchema = z.object({
  orgId: z.string(),
  firstSeenAt: z.iso.datetime(),
  lastSeenAt: z.iso.datetime(),
  countsUntil: z.iso.datetime(),
  inUse: z.boolean(),
});

export const licencePageLicenceSchema = z.object({
  id: z.uuid(),
  edition: z.string(),
  type: z.string(),
  state: z.string(),
  maskedKey: z.string(),
  /** When a subscription renews (null when it ends instead), else when the licence expires. */
  renewsAt: z.nullable(z.iso.datetime()),
  expiresAt: z.nullable(z.iso.datetime()),
  orgLimit: z.union([z.number(), z.literal('unlimited')]),
  orgsInUse: z.number(),
  orgs: z.array(licencePageOrgSchema),
  /** The access tokens that still work (decision 236). */
  tokens: z.array(licencePageTokenSchema),
  billing: licencePageBillingSchema,
});

export const licencePageDocumentSchema = z.object({
  number: z.string(),
  kind: z.enum(['invoice', 'receipt', 'credit_note', 'quote']),
  issuedOn: z.string(),
  currency: z.string(),
  amountMinor: z.number(),
  /** The signed PDF link (decision 180); quotes have none here. */
  pdfUrl: z.nullable(z.string()),
});

/** What the signed-in page shows: the address's own licences and documents, nothing else. */
export const licencePageViewSchema = z.object({
  email: z.string(),
  sessionExpiresAt: z.iso.datetime(),
  releasesPerWindow: z.number(),
  releaseWindowDays: z.number(),
  licences: z.array(licencePageLicenceSchema),
  documents: z.array(licencePageDocumentSchema),
});

export type LicencePageView = z.output<typeof licencePageViewSchema>;
export type LicencePageLicence = z.output<typeof licencePageLicenceSchema>;

/** What the page's loader found: signed in with its view, or not. */
export type LicencePageReading = { signedIn: false } | { signedIn: true; view: LicencePageView };

export const licencePageMessages = {
  codeSent:
    'If this address holds an Orgsmith licence, a sign-in code is on its way to it. It works for 15 minutes.',
  codeInvalid:
    'This code does not work: it is wrong, has expired or was used. Check the latest e-mail, or ask for a new code.',
  linkInvalid:
    'This sign-in link does not work (any more): it has expired or was used. Ask for a new code on the licences page.',
  sessionRequired: 'Your session has ended. Sign in again.',
  licenceUnknown: 'No licence of yours has this id.',
  failed: 'Something went wrong and nothing was changed. Please try again in a minute.',
} as const;

// Keys and tokens, billing changes (issue 42, items 4 and 6; decision 236).
export const LICENCE_PAGE_REPLACE_KEY_PATH = '/account/v1/licence-page/replace-key';
export const LICENCE_PAGE_CREATE_TOKEN_PATH = '/account/v1/licence-page/create-token';
export const LICENCE_PAGE_REVOKE_TOKEN_PATH = '/account/v1/licence-page/revoke-token';
export const LICENCE_PAGE_CHANGE_REQUEST_PATH = '/account/v1/licence-page/change-request';

/** The page where a card subscription is managed (Stripe's billing portal, by e-mailed link). */
export const BILLING_PORTAL_PAGE = '/billing-portal';

export const licencePageReplaceKeyRequestSchema = z.strictObject({
  licenceId: z.uuid('licenceId must be a licence id.'),
  keepTokenIds: z._default(
    z.array(z.uuid('keepTokenIds must be token ids.')).check(z.maxLength(100)),
    [],
  ),
});

export const licencePageReplacedKeySchema = z
  .object({
    key: z.string().check(z.describe('The new key. Shown this once; it is e-mailed too.')),
    maskedKey: z.string(),
    endedTokens: z.number(),
    keptTokens: z.number(),
  })
  .register(z.globalRegistry, { id: 'LicencePageReplacedKey' });

export const ACCESS_TOKEN_NAME_MAX = 100;

export const licencePageCreateTokenRequestSchema = z.strictObject({
  licenceId: z.uuid('licenceId must be a licence id.'),
  name: z
    .string({ error: 'Name the token.' })
    .check(
      z.trim(),
      z.minLength(1, 'Name the token, e.g. "GitHub Actions".'),
      z.maxLength(ACCESS_TOKEN_NAME_MAX, `A name has at most ${ACCESS_TOKEN_NAME_MAX} characters.`),
      z.regex(/^[^\p{Cc}]*$/u, 'A name is one line.'),
    ),
});

export const licencePageCreatedTokenSchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    hint: z.string(),
    createdAt: z.iso.datetime(),
    token: z.string().check(z.describe('The token. Shown this once: store it as a CI secret.')),
  })
  .register(z.globalRegistry, { id: 'LicencePageCreatedToken' });

export const licencePageRevokeTokenRequestSchema = z.strictObject({
  licenceId: z.uuid('licenceId must be a licence id.'),
  tokenId: z.uuid('tokenId must be a token id.'),
});

export const licencePageRevokedTokenSchema = z
  .object({ id: z.uuid(), alreadyRevoked: z.boolean() })
  .register(z.globalRegistry, { id: 'LicencePageRevokedToken' });

export const licencePageChangeRequestSchema = z
  .strictObject({
    licenceId: z.uuid('licenceId must be a licence id.'),
    kind: z.enum(changeRequestKinds, 'Choose seats, plan or cancel.'),
    seats: z.optional(
      z
        .number('Seats must be a number.')
        .check(
          z.int('Seats must be a whole number.'),
          z.minimum(1, 'At least 1 seat.'),
          z.maximum(CHANGE_REQUEST_SEATS_MAX, `At most ${CHANGE_REQUEST_SEATS_MAX} seats.`),
        ),
    ),
    edition: z.optional(z.enum(changeRequestEditions, 'Choose Starter, Pro or Enterprise.')),
    message: z.optional(
      z
        .string()
        .check(
          z.trim(),
          z.maxLength(
            CHANGE_REQUEST_MESSAGE_MAX,
            `A message has at most ${CHANGE_REQUEST_MESSAGE_MAX} characters.`,
          ),
        ),
    ),
  })
  .check(
    z.refine((value) => value.kind !== 'seats' || value.seats !== undefined, {
      message: 'Say how many seats.',
      path: ['seats'],
    }),
    z.refine((value) => value.kind !== 'plan' || value.edition !== undefined, {
      message: 'Choose the plan.',
      path: ['edition'],
    }),
  );

export type LicencePageChangeRequest = z.output<typeof licencePageChangeRequestSchema>;

export const licencePageKeyMessages = {
  tokenUnknown: 'This licence has no such access token.',
  tokenLimit: 'This licence has as many access tokens as it may hold (20). Revoke one first.',
  keyChanged: 'The key changed meanwhile. Reload the page and try again.',
  notByInvoice:
    'This licence is not paid by invoice: change a card subscription in the billing portal.',
  changeRequestOpen:
    'A change request of this subscription is already waiting for our answer. We will e-mail you; then you can ask again.',
  viewAsReadOnly: 'This is a read-only view of the customer’s page: nothing was changed.',
} as const;
