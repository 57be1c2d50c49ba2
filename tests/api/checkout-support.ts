import { asc, eq } from 'drizzle-orm';
import { emailOutbox, licences } from '#server/platform/db/schema.ts';
import { issueLicence } from '#server/licensing/licences/issue-licence.ts';
import { siteConfig } from '#shared/site-config.ts';
import type { CheckoutRequestInput } from '#shared/contracts/checkout.ts';
import { csrfHeaders, type TestApp } from '../support/test-app.ts';

/** Shared by the checkout API tests: requests as the site and the buyer's browser send them. */

export const origin = 'http://localhost:3000';
export const successUrl = `${origin}/checkout-success?session_id={CHECKOUT_SESSION_ID}`;
export const cancelUrl = `${origin}/pricing?size=10&period=yearly&currency=EUR`;

/** A German company, as the checkout dialog sends it (decision 219): 19 % VAT. */
export const germanCompany = {
  companyName: 'Muster Software GmbH',
  addressLine: 'Hauptstraße 1',
  postalCode: '10115',
  city: 'Berlin',
  country: 'DE',
} as const;

export const pro10YearlyEur: CheckoutRequestInput = {
  edition: 'Pro',
  quantity: 10,
  billingPeriod: 'yearly',
  billingCurrency: 'EUR',
  successUrl,
  cancelUrl,
  ...germanCompany,
};

let ipCounter = 0;
/** A fresh documentation-range address per call, so one test's rate limit never hits another. */
export function freshIp(): string {
  ipCounter++;
  return `198.19.${Math.floor(ipCounter / 250)}.${(ipCounter % 250) + 1}`;
}

export async function postCheckout(
  t: TestApp,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<Response> {
  return t.app.request('/account/v1/checkout', {
    method: 'POST',
    headers: {
      ...csrfHeaders(),
      'Content-Type': 'application/json',
      'X-Forwarded-For': freshIp(),
      ...headers,
    },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

/**
 * Opens a checkout as the site's checkout dialog does: a request that names no company is sent
 * for `germanCompany` (decision 219), one from a quote's link as it is (the quote names it).
 */
export async function createCheckout(
  t: TestApp,
  body: CheckoutRequestInput,
): Promise<{ sessionId: string; url: string }> {
  const named = body.quoteToken || body.companyName ? body : { ...germanCompany, ...body };
  const response = await postCheckout(t, named);
  if (response.status !== 201) {
    throw new Error(`checkout answered ${response.status}: ${await response.text()}`);
  }
  const json: unknown = await response.json();
  if (
    typeof json !== 'object' ||
    json === null ||
    !('sessionId' in json) ||
    !('url' in json) ||
    typeof json.sessionId !== 'string' ||
    typeof json.url !== 'string'
  ) {
    throw new Error('unexpected checkout answer');
  }
  return { sessionId: json.sessionId, url: json.url };
}

/** A browser request to a local provider page, with the CSRF cookie it would carry. */
export async function browser(
  t: TestApp,
  path: string,
  form?: Record<string, string>,
): Promise<Response> {
  const token = 'test-csrf-token';
  if (!form) return t.app.request(path, { headers: { Cookie: `XSRF-TOKEN=${token}` } });
  return t.app.request(path, {
    method: 'POST',
    headers: {
      Cookie: `XSRF-TOKEN=${token}`,
      'Content-Type': 'application/x-www-form-urlencoded',
    },
    body: new URLSearchParams({ _csrf: token, ...form }).toString(),
  });
}

export const successCard = {
  cardNumber: '4242 4242 4242 4242',
  cardExpiry: '12 / 34',
  cardCvc: '123',
};
export const declineCard = {
  cardNumber: '4000 0000 0000 0002',
  cardExpiry: '12 / 34',
  cardCvc: '123',
};

/** Pays a local hosted checkout as the buyer would; returns the redirect target. */
export async function payLocally(
  t: TestApp,
  sessionId: string,
  buyer: { email: string; card?: typeof successCard },
): Promise<Response> {
  return browser(t, `/billing/local/checkout/${sessionId}`, {
    email: buyer.email,
    ...(buyer.card ?? {}),
  });
}

export async function issueTrial(t: TestApp, email: string): Promise<{ id: string; key: string }> {
  const issued = await t.deps.database.db.transaction((tx) =>
    issueLicence(tx, t.deps.secretKey, {
      type: 'Trial',
      edition: 'Enterprise',
      email,
      productId: siteConfig.productId,
      expiresAt: new Date(t.deps.clock().getTime() + 60 * 86_400_000),
      addressRule: 'first',
    }),
  );
  if (!issued.ok) throw new Error(`trial not issued: ${issued.code}`);
  return { id: issued.licence.id, key: issued.key };
}

export function outbox(t: TestApp) {
  return t.deps.database.db.select().from(emailOutbox).orderBy(asc(emailOutbox.id));
}

export async function mailsTo(t: TestApp, to: string) {
  return (await outbox(t)).filter((row) => row.toAddress === to);
}

export function licencesOf(t: TestApp, emailNormalized: string) {
  return t.deps.database.db
    .select()
    .from(licences)
    .where(eq(licences.emailNormalized, emailNormalized));
}

export const licenceKeyPattern = /ORGS(?:-[0-9A-Z]{4}){7}/;
