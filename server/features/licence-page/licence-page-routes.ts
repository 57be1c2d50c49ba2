import { setTimeout as sleep } from 'node:timers/promises';
import { type Context, Hono } from 'hono';
import { errorCodes } from '#shared/contracts/error-codes.ts';
import {
  LICENCE_PAGE_CODE_PATH,
  LICENCE_PAGE_RELEASE_ORG_PATH,
  LICENCE_PAGE_SIGN_IN_LINK_PATH,
  LICENCE_PAGE_SIGN_IN_PATH,
  LICENCE_PAGE_SIGN_OUT_PATH,
  licencePageMessages,
  licencePageReleasedSchema,
  licencePageReleaseOrgRequestSchema,
  signedInSchema,
  signInCodeRequestSchema,
  signInLinkRequestSchema,
  signInRequestSchema,
} from '#shared/contracts/licence-page.ts';
import { siteConfig } from '#shared/site-config.ts';
import type { FeaturePorts } from '#server/features/feature-ports.ts';
import {
  ORG_RELEASE_WINDOW_DAYS,
  ORG_RELEASES_PER_WINDOW,
} from '#server/licensing/licence-orgs/release-licence-org.ts';
import {
  errorBodySchema,
  invalidRequestErrorSchema,
  noQueryParameters,
  payloadTooLargeErrorSchema,
  rateLimitHeadersDoc,
  tooManyRequestsErrorSchema,
  unsupportedMediaTypeErrorSchema,
} from '#server/platform/api-doc/common-errors.ts';
import { defineRoute, defineRoutes } from '#server/platform/api-doc/define-route.ts';
import { normalizeEmailAddress } from '#server/platform/email/normalize-email-address.ts';
import type { AppEnv } from '#server/platform/http/types.ts';
import { rateLimitClient } from '#server/platform/rate-limit/client-ip.ts';
import { enforceRateLimits } from '#server/platform/rate-limit/enforce-rate-limits.ts';
import { rateLimitRules } from '#server/platform/rate-limit/rate-limit-rules.ts';
import { releaseOwnOrg } from './release-own-org.ts';
import { clearSessionCookie, readSessionCookie, setSessionCookie } from './session-cookie.ts';
import {
  endSession,
  readSession,
  requestSignInCode,
  signInWithCode,
  signInWithLink,
  type OpenedSession,
} from './sign-in.ts';

/**
 * The code request answers in at least this long, known address or not (as the lost-key form,
 * decision 075), so its timing does not tell whether the address holds a licence.
 */
export const SIGN_IN_CODE_MIN_ANSWER_MS = 400;

const TAG = 'Licence page';
const commonErrors = {
  400: { description: 'Malformed JSON or field.', schema: invalidRequestErrorSchema },
  413: { description: 'The body is larger than 16 KiB.', schema: payloadTooLargeErrorSchema },
  415: { description: 'The body is not JSON.', schema: unsupportedMediaTypeErrorSchema },
  429: {
    description: 'Too many requests from this client or for this address.',
    schema: tooManyRequestsErrorSchema,
    headers: rateLimitHeadersDoc,
  },
} as const;

const requestCodeRoute = defineRoute({
  method: 'post',
  path: LICENCE_PAGE_CODE_PATH,
  auth: 'csrf',
  operationId: 'requestLicencePageCode',
  tag: TAG,
  summary: 'E-mail a sign-in code and link for the licence page',
  description:
    'Answers 202 whether or not the address holds a licence, and takes the same time either way. When it does, the address the licence was issued to receives a 6-digit code and a link (15 minutes, single use).',
  request: { body: signInCodeRequestSchema },
  responses: {
    202: { description: 'Accepted; nothing is revealed about the address.' },
    ...commonErrors,
  },
});

const signInRoute = defineRoute({
  method: 'post',
  path: LICENCE_PAGE_SIGN_IN_PATH,
  auth: 'csrf',
  operationId: 'signInToLicencePage',
  tag: TAG,
  summary: 'Sign in to the licence page with the e-mailed code',
  description:
    'Opens a one-hour session (the `__Host-orgsmith-licences` cookie). The code works once; the fifth wrong try ends it.',
  request: { body: signInRequestSchema },
  responses: {
    200: { description: 'Signed in; the cookie is set.', schema: signedInSchema },
    401: {
      description: 'SignInCodeInvalid: wrong, expired, used or tried too often.',
      schema: errorBodySchema,
    },
    ...commonErrors,
  },
});

const signInLinkRoute = defineRoute({
  method: 'post',
  path: LICENCE_PAGE_SIGN_IN_LINK_PATH,
  auth: 'csrf',
  operationId: 'signInToLicencePageByLink',
  tag: TAG,
  summary: 'Sign in to the licence page with the e-mailed link',
  description:
    'The "Continue" button of the page the link opens sends its token; opening the link alone signs no one in.',
  request: { body: signInLinkRequestSchema },
  responses: {
    200: { description: 'Signed in; the cookie is set.', schema: signedInSchema },
    410: { description: 'SignInLinkInvalid: expired, used or not ours.', schema: errorBodySchema },
    ...commonErrors,
  },
});

const signOutRoute = defineRoute({
  method: 'post',
  path: LICENCE_PAGE_SIGN_OUT_PATH,
  auth: 'csrf',
  operationId: 'signOutOfLicencePage',
  tag: TAG,
  summary: 'End the licence page session',
  description: 'The session ends on the server and the cookie is cleared.',
  responses: { 204: { description: 'Signed out.' } },
});

const releaseOrgRoute = defineRoute({
  method: 'post',
  path: LICENCE_PAGE_RELEASE_ORG_PATH,
  auth: 'csrf',
  operationId: 'releaseOrgFromLicencePage',
  tag: TAG,
  summary: 'Release an org of a licence of the signed-in address',
  description: `The page's "Release" button: frees the org's slot at once; at most ${ORG_RELEASES_PER_WINDOW} releases per licence in ${ORG_RELEASE_WINDOW_DAYS} days (decision 228).`,
  request: { body: licencePageReleaseOrgRequestSchema },
  responses: {
    200: { description: 'The org no longer holds a slot.', schema: licencePageReleasedSchema },
    401: { description: 'LicenceSessionRequired: not signed in.', schema: errorBodySchema },
    404: {
      description:
        'LicenceNotFound: no licence of the signed-in address has this id; OrgNotInUse: the org holds no slot.',
      schema: errorBodySchema,
    },
    409: {
      description:
        'OrgReleaseLimit: the message says when the next is possible and how to reach support.',
      schema: errorBodySchema,
    },
    ...commonErrors,
  },
});

/** The licence page's sign-in, sign-out and "Release" (decision 229). */
export const licencePageRoutes = defineRoutes(
  [requestCodeRoute, signInRoute, signInLinkRoute, signOutRoute, releaseOrgRoute],
  (deps: FeaturePorts) => {
    const app = new Hono<AppEnv>();
    const secure = deps.env.PUBLIC_BASE_URL.startsWith('https:');
    const serviceDeps = {
      db: deps.database.db,
      secretKey: deps.secretKey,
      publicBaseUrl: deps.env.PUBLIC_BASE_URL,
      clock: deps.clock,
    };
    const limiter = deps.rateLimiter;
    const perClient = (
      c: Context<AppEnv>,
      rule: (typeof rateLimitRules)[keyof typeof rateLimitRules],
    ) => enforceRateLimits(c, limiter, [{ rule, subject: rateLimitClient(c) }], { pacing: true });
    const perAddress = (
      c: Context<AppEnv>,
      rule: (typeof rateLimitRules)[keyof typeof rateLimitRules],
      address: string,
    ) =>
      enforceRateLimits(c, limiter, [{ rule, subject: normalizeEmailAddress(address) }], {
        pacing: true,
      });
    const signedIn = (c: Context<AppEnv>, session: OpenedSession) => {
      setSessionCookie(c, secure, session.sessionId, session.expiresAt);
      return c.json({ expiresAt: session.expiresAt.toISOString() });
    };

    app.use('/account/v1/licence-page/*', async (c, next) => {
      await next();
      c.header('Cache-Control', 'no-store');
    });

    requestCodeRoute.handle(app, noQueryParameters, async (c, request) => {
      const started = performance.now();
      const limitedClient = await perClient(c, rateLimitRules.licencePageCodePerIp);
      if (limitedClient) return limitedClient;
      const body = await request.body();
      if (!body.ok) return body.response;
      const limitedAddress = await perAddress(
        c,
        rateLimitRules.licencePageCodePerEmail,
        body.value.emailAddress,
      );
      if (limitedAddress) return limitedAddress;
      if (await requestSignInCode(serviceDeps, body.value.emailAddress)) deps.wakeOutbox();
      await sleep(Math.max(0, started + SIGN_IN_CODE_MIN_ANSWER_MS - performance.now()));
      return c.body(null, 202);
    });

    signInRoute.handle(app, noQueryParameters, async (c, request) => {
      const limitedClient = await perClient(c, rateLimitRules.licencePageSignInPerIp);
      if (limitedClient) return limitedClient;
      const body = await request.body();
      if (!body.ok) return body.response;
      const limitedAddress = await perAddress(
        c,
        rateLimitRules.licencePageSignInPerEmail,
        body.value.emailAddress,
      );
      if (limitedAddress) return limitedAddress;
      const session = await signInWithCode(serviceDeps, body.value.emailAddress, body.value.code);
      if (!session) {
        return c.json(
          { Error: errorCodes.signInCodeInvalid, message: licencePageMessages.codeInvalid },
          401,
        );
      }
      return signedIn(c, session);
    });

    signInLinkRoute.handle(app, noQueryParameters, async (c, request) => {
      const limited = await perClient(c, rateLimitRules.licencePageSignInPerIp);
      if (limited) return limited;
      const body = await request.body();
      if (!body.ok) return body.response;
      const session = await signInWithLink(serviceDeps, body.value.token);
      if (!session) {
        return c.json(
          { Error: errorCodes.signInLinkInvalid, message: licencePageMessages.linkInvalid },
          410,
        );
      }
      return signedIn(c, session);
    });

    signOutRoute.handle(app, noQueryParameters, async (c) => {
      await endSession(serviceDeps, readSessionCookie(c, secure));
      clearSessionCookie(c, secure);
      return c.body(null, 204);
    });

    releaseOrgRoute.handle(app, noQueryParameters, async (c, request) => {
      const limited = await perClient(c, rateLimitRules.licencePageActionPerIp);
      if (limited) return limited;
      const session = await readSession(serviceDeps, readSessionCookie(c, secure));
      if (!session) {
        return c.json(
          {
            Error: errorCodes.licenceSessionRequired,
            message: licencePageMessages.sessionRequired,
          },
          401,
        );
      }
      const body = await request.body();
      if (!body.ok) return body.response;
      const result = await releaseOwnOrg(serviceDeps, session.emailNormalized, body.value);
      if (!result.ok) {
        switch (result.code) {
          case 'LicenceNotFound':
            return c.json(
              { Error: errorCodes.licenceNotFound, message: licencePageMessages.licenceUnknown },
              404,
            );
          case 'OrgNotInUse':
            return c.json(
              {
                Error: errorCodes.orgNotInUse,
                message: `Org ${body.value.orgId} holds no slot of this licence: it has not validated it in the last 30 days.`,
              },
              404,
            );
          case 'OrgReleaseLimit':
            return c.json(
              {
                Error: errorCodes.orgReleaseLimit,
                message: `This licence released ${ORG_RELEASES_PER_WINDOW} orgs in the last ${ORG_RELEASE_WINDOW_DAYS} days. The next release is possible on ${result.retryAt.toISOString().slice(0, 10)}; to release one sooner, write to ${siteConfig.supportEmail}.`,
              },
              409,
            );
        }
      }
      c.get('log').info({ licenceId: body.value.licenceId }, 'org released from the licence page');
      return c.json({
        orgId: result.released.orgId,
        releasesLeft: result.customerReleases?.left ?? 0,
        releasesResetAt: result.customerReleases?.nextAt?.toISOString() ?? null,
      });
    });

    return app;
  },
);
