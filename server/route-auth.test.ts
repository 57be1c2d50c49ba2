import { describe, expect, it } from 'vitest';
import { csrfExemptionsOf } from './platform/csrf/csrf-exemptions.ts';
import {
  describeRouteAuth,
  routeAuthSchema,
  unreviewedPublicWrites,
} from './platform/route-auth/route-auth.ts';
import { consoleRouteDefinitions, routeDefinitions } from './domains.ts';
import { consoleRoutesWithoutPermission } from './features/console/console-routes.ts';

/**
 * The writes anyone may send with no credential at all, each with why that is safe. Keep it
 * short: a machine with a credential of its own declares it (`accessToken`, `licenceKey`,
 * `stripeSignature`), a page of the site declares `csrf` (decision 225).
 */
const reviewedPublicWrites: Readonly<Record<string, string>> = {};

const label = (doc: { method: string; path: string; operationId: string }) =>
  `${doc.method.toUpperCase()} ${doc.path} (${doc.operationId})`;

describe('every route declares its auth (decision 225)', () => {
  const docs = routeDefinitions();

  it('is one of the kinds, even where a cast got past the type checker', () => {
    expect(docs.length).toBeGreaterThan(30);
    const undeclared = docs.filter((doc) => !routeAuthSchema.safeParse(doc.auth).success);
    expect(undeclared.map(label)).toEqual([]);
  });

  it('lets no one write without a credential unless the write was reviewed', () => {
    expect(unreviewedPublicWrites(docs, reviewedPublicWrites)).toEqual([]);
    const stale = Object.keys(reviewedPublicWrites).filter(
      (id) => !docs.some((doc) => doc.operationId === id && doc.auth === 'public'),
    );
    expect(stale, 'reviewed writes that are no longer public').toEqual([]);
  });

  it('exempts from the CSRF check exactly the machine endpoints', () => {
    const isExempt = csrfExemptionsOf(docs);
    const exempt = docs
      .filter((doc) => doc.method !== 'get' && isExempt(doc.method, doc.path))
      .map((doc) => `${label(doc)}: ${describeRouteAuth(doc.auth)}`);
    expect(exempt.sort()).toEqual([
      'POST /account/v1/access-tokens (createAccessToken): licenceKey',
      'POST /account/v1/access-tokens/list (listAccessTokens): licenceKey',
      'POST /account/v1/access-tokens/revoke (revokeAccessToken): licenceKey',
      'POST /account/v1/licenses/release-org (releaseOrg): accessToken',
      'POST /account/v1/licenses/validate (validateLicense): accessToken',
      'POST /account/v1/webhooks/stripe (receiveStripeWebhook): stripeSignature',
    ]);
  });
});

describe('every console route needs a permission (decision 226)', () => {
  const docs = consoleRouteDefinitions();

  it('declares { permission } unless the list says why not', () => {
    expect(docs.length).toBeGreaterThan(5);
    const missing = docs.filter(
      (doc) =>
        typeof doc.auth !== 'object' && !consoleRoutesWithoutPermission[doc.operationId]?.trim(),
    );
    expect(missing.map(label), 'console routes without a permission').toEqual([]);
    // The exceptions are sign-in steps (public) or about the operator's own session.
    for (const doc of docs.filter((doc) => typeof doc.auth !== 'object')) {
      expect(['public', 'consoleSession'], label(doc)).toContain(doc.auth);
    }
    const stale = Object.keys(consoleRoutesWithoutPermission).filter(
      (id) => !docs.some((doc) => doc.operationId === id && typeof doc.auth !== 'object'),
    );
    expect(stale, 'exceptions that are no longer console routes without a permission').toEqual([]);
  });

  it('lives under /console/api/ on the console listener only, never in the public routes', () => {
    expect(docs.filter((doc) => !doc.path.startsWith('/console/api/')).map(label)).toEqual([]);
    const publicDocs = routeDefinitions();
    expect(
      publicDocs
        .filter((doc) => doc.path.startsWith('/console') || typeof doc.auth === 'object')
        .map(label),
    ).toEqual([]);
    expect(publicDocs.filter((doc) => doc.auth === 'consoleSession').map(label)).toEqual([]);
  });
});
