import * as z from 'zod/mini';
import { emailAddressField } from './fields.ts';

/** `POST /account/v1/manage` body and the portal-access form (docs/product-rules.md#data). */
export const billingPortalRequestSchema = z.strictObject({
  emailAddress: emailAddressField,
});

export type BillingPortalRequest = z.output<typeof billingPortalRequestSchema>;

/** The site page the billing-portal e-mail links to, with `?token=…` (decision 123). */
export const BILLING_PORTAL_PAGE = '/billing-portal';
/** `POST` with the link's token opens the portal; a `GET` (older e-mails) leads to the page. */
export const OPEN_BILLING_PORTAL_PATH = '/account/v1/billing-portal';

/** `POST /account/v1/billing-portal`: the landing page's button sends the link's token. */
export const openBillingPortalRequestSchema = z.strictObject({
  token: z
    .string({ error: 'token is required.' })
    .check(z.minLength(1, 'token is required.'), z.maxLength(1000, 'token is too long.')),
});

export type OpenBillingPortalRequest = z.output<typeof openBillingPortalRequestSchema>;

/** The answer: where the browser goes next, the payment provider's portal session. */
export const openBillingPortalResponseSchema = z
  .object({
    url: z
      .string()
      .check(z.describe('Where to send the browser: the payment provider’s portal session.')),
  })
  .register(z.globalRegistry, { id: 'BillingPortalSession' });

export type OpenBillingPortalResponse = z.output<typeof openBillingPortalResponseSchema>;

/** What the landing page knows about its link, read without using it. */
export type PortalLinkStatus =
  /** The link can open the portal: what it is for (plan, billing, key ending) and until when. */
  | { state: 'ready'; subscription: string; validUntil: string }
  /** Forged, expired, used, or its licence has gone or moved to another customer. */
  | { state: 'invalid' }
  /** The page was opened without a token. */
  | { state: 'missing' };

/** The texts of the billing-portal landing page. */
export const portalLinkMessages = {
  intro:
    'This link opens the billing portal of your subscription, where you can upgrade, downgrade or cancel it and edit your billing information.',
  expires: (when: string) => `The link works once, until ${when}.`,
  button: 'Open the billing portal',
  opening: 'Opening…',
  missing:
    'This page opens the billing portal from the link in your email. To receive a link, enter the email address you gave at purchase.',
  requestLink: 'Request a new link',
} as const;
