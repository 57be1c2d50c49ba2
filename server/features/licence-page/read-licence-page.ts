import type { LicencePageReading, LicencePageView } from '#shared/contracts/licence-page.ts';
import type { FeaturePorts } from '#server/features/feature-ports.ts';
import { paymentDocumentUrl } from '#server/billing/documents/payment-document-link.ts';
import {
  ORG_RELEASE_WINDOW_DAYS,
  ORG_RELEASES_PER_WINDOW,
} from '#server/licensing/licence-orgs/release-licence-org.ts';
import type { Executor } from '#server/platform/db/database.ts';
import { normalizeEmailAddress } from '#server/platform/email/normalize-email-address.ts';
import { customerStory } from '../customers/customer-story.ts';
import { changeRequestView, newestChangeRequests } from './change-request-repository.ts';
import { sessionIdOfCookieHeader } from './session-cookie.ts';
import { readSession } from './sign-in.ts';

/**
 * What the signed-in licence page shows (decision 229): support's reading of the address
 * (`customerStory`, decision 227), cut down to what is the customer's own — licences issued to the
 * address in any spelling, documents and quotes made out to it — and to what they need to see:
 * no other person's address, no provider ids, no audit trail.
 */
export async function readLicencePage(
  deps: { db: Executor; secretKey: string; publicBaseUrl: string; clock: () => Date },
  session: { emailNormalized: string; expiresAt: Date },
): Promise<LicencePageView> {
  const now = deps.clock();
  const story = await customerStory(deps, session.emailNormalized);
  const own = (address: string) => normalizeEmailAddress(address) === session.emailNormalized;
  const licences = (story?.licences ?? []).filter((licence) => own(licence.email));
  const subscriptions = story?.subscriptions ?? [];
  const documents = [
    ...(story?.documents ?? [])
      .filter((document) => own(document.buyerEmail))
      .map((document) => ({
        number: document.number,
        kind: document.kind,
        issuedOn: document.issuedOn,
        currency: document.currency,
        amountMinor: document.grossMinor,
        pdfUrl: paymentDocumentUrl(deps.publicBaseUrl, deps.secretKey, document.number),
      })),
    ...(story?.quotes ?? []).map((quote) => ({
      number: quote.number,
      kind: 'quote' as const,
      issuedOn: quote.quoteDate,
      currency: quote.currency,
      amountMinor: quote.totalCents,
      pdfUrl: null,
    })),
  ].sort((a, b) => b.issuedOn.localeCompare(a.issuedOn) || b.number.localeCompare(a.number));
  const changeRequests = await newestChangeRequests(
    deps.db,
    licences.flatMap((licence) => (licence.subscriptionId ? [licence.subscriptionId] : [])),
  );
  return {
    email: licences[0]?.email ?? session.emailNormalized,
    sessionExpiresAt: session.expiresAt.toISOString(),
    releasesPerWindow: ORG_RELEASES_PER_WINDOW,
    releaseWindowDays: ORG_RELEASE_WINDOW_DAYS,
    licences: licences.map((licence) => {
      const subscription = subscriptions.find(
        (row) => row.subscriptionId === licence.subscriptionId,
      );
      const renews = subscription && !subscription.endedAt && !subscription.cancelAtPeriodEnd;
      return {
        id: licence.id,
        edition: licence.edition,
        type: licence.type,
        state: licence.state,
        maskedKey: licence.maskedKey,
        renewsAt: renews ? subscription.currentPeriodEnd.toISOString() : null,
        expiresAt: licence.expiresAt?.toISOString() ?? null,
        orgLimit: licence.orgLimit,
        orgsInUse: licence.orgsInUse,
        orgs: licence.orgs.map((org) => ({
          orgId: org.orgId,
          firstSeenAt: org.firstSeenAt.toISOString(),
          lastSeenAt: org.lastSeenAt.toISOString(),
          countsUntil: org.countsUntil.toISOString(),
          inUse: org.countsUntil > now,
        })),
        tokens: licence.tokens
          .filter((token) => !token.revokedAt)
          .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime())
          .map((token) => ({
            id: token.id,
            name: token.name,
            hint: token.hint,
            createdAt: token.createdAt.toISOString(),
            lastUsedAt: token.lastUsedAt?.toISOString() ?? null,
          })),
        billing: {
          collection: subscription && !subscription.endedAt ? subscription.collection : 'none',
          edition: subscription?.edition ?? null,
          seats: subscription?.quantity ?? null,
          changeRequest: (() => {
            const row = licence.subscriptionId && changeRequests.get(licence.subscriptionId);
            return row ? changeRequestView(row) : null;
          })(),
        },
      };
    }),
    documents,
  };
}

/** The page's loader service: the session of the request's cookie, and its view. */
export function readLicencePageOf(deps: FeaturePorts) {
  const secure = deps.env.PUBLIC_BASE_URL.startsWith('https:');
  const pageDeps = {
    db: deps.database.db,
    secretKey: deps.secretKey,
    publicBaseUrl: deps.env.PUBLIC_BASE_URL,
    clock: deps.clock,
  };
  return async (cookieHeader: string | null): Promise<LicencePageReading> => {
    const session = await readSession(pageDeps, sessionIdOfCookieHeader(cookieHeader, secure));
    if (!session) return { signedIn: false };
    return { signedIn: true, view: await readLicencePage(pageDeps, session) };
  };
}
