import { setTimeout as sleep } from 'node:timers/promises';
import { type Context, Hono } from 'hono';
import { errorCodes } from '#shared/contracts/error-codes.ts';
import {
  LICENCE_PAGE_CHANGE_REQUEST_PATH,
  LICENCE_PAGE_CODE_PATH,
  LICENCE_PAGE_CREATE_TOKEN_PATH,
  LICENCE_PAGE_REPLACE_KEY_PATH,
  LICENCE_PAGE_REVOKE_TOKEN_PATH,
  LICENCE_PAGE_RELEASE_ORG_PATH,
  LICENCE_PAGE_SIGN_IN_LINK_PATH,
  LICENCE_PAGE_SIGN_IN_PATH,
  LICENCE_PAGE_SIGN_OUT_PATH,
  changeRequestViewSchema,
  licencePageChangeRequestSchema,
  licencePageCreatedTokenSchema,
  licencePageCreateTokenRequestSchema,
  licencePageKeyMessages,
  licencePageMessages,
  licencePageReplacedKeySchema,
  licencePageReplaceKeyRequestSchema,
  licencePageRevokedTokenSchema,
  licencePageRevokeTokenRequestSchema,
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
import { changeRequestView, requestChange } from './change-request-repository.ts';
import { createOwnToken, replaceOwnKey, revokeOwnToken } from './keys-and-tokens.ts';
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

const sessionRequired = {
  401: { description: 'LicenceSessionRequired: not signed in.', schema: errorBodySchema },
} as const;

const replaceKeyRoute = defineRoute({
  method: 'post',
  path: LICENCE_PAGE_REPLACE_KEY_PATH,
  auth: 'csrf',
  operationId: 'replaceKeyFromLicencePage',
  tag: TAG,
  summary: 'Replace the key of a licence of the signed-in address',
  description:
    'The old key stops working at once, and so does every access token of the licence but those named in `keepTokenIds`. The new key is answered (shown once) and e-mailed to the licence’s address (decision 236).',
  request: { body: licencePageReplaceKeyRequestSchema },
  responses: {
    200: { description: 'The new key, shown once.', schema: licencePageReplacedKeySchema },
    ...sessionRequired,
    404: {
      description: 'LicenceNotFound: no licence of the address has this id.',
      schema: errorBodySchema,
    },
    409: { description: 'KeyChanged: the key changed meanwhile; reload.', schema: errorBodySchema },
    ...commonErrors,
  },
});

const createTokenRoute = defineRoute({
  method: 'post',
  path: LICENCE_PAGE_CREATE_TOKEN_PATH,
  auth: 'csrf',
  operationId: 'createTokenFromLicencePage',
  tag: TAG,
  summary: 'Create an access token for a licence of the signed-in address',
  description:
    'The token is answered this once and stored as a keyed hash; the licence’s address is told by e-mail (decision 212).',
  request: { body: licencePageCreateTokenRequestSchema },
  responses: {
    201: { description: 'The token, shown once.', schema: licencePageCreatedTokenSchema },
    ...sessionRequired,
    404: { description: 'LicenceNotFound.', schema: errorBodySchema },
    409: { description: 'AccessTokenLimitReached: 20 active tokens.', schema: errorBodySchema },
    ...commonErrors,
  },
});

const revokeTokenRoute = defineRoute({
  method: 'post',
  path: LICENCE_PAGE_REVOKE_TOKEN_PATH,
  auth: 'csrf',
  operationId: 'revokeTokenFromLicencePage',
  tag: TAG,
  summary: 'Revoke an access token of a licence of the signed-in address',
  description: 'Validations with the token answer NOT_FOUND from then on.',
  request: { body: licencePageRevokeTokenRequestSchema },
  responses: {
    200: { description: 'Revoked (or it was already).', schema: licencePageRevokedTokenSchema },
    ...sessionRequired,
    404: {
      description: 'LicenceNotFound, or AccessTokenNotFound: the licence has no such token.',
      schema: errorBodySchema,
    },
    ...commonErrors,
  },
});

const changeRequestRoute = defineRoute({
  method: 'post',
  path: LICENCE_PAGE_CHANGE_REQUEST_PATH,
  auth: 'csrf',
  operationId: 'requestSubscriptionChange',
  tag: TAG,
  summary: 'Ask for a change of a subscription paid by invoice (seats, plan, cancel)',
  description:
    'Stored for finance’s approvals queue in the console; the customer is e-mailed the answer. One open request per subscription (decision 236).',
  request: { body: licencePageChangeRequestSchema },
  responses: {
    201: { description: 'The request, open.', schema: changeRequestViewSchema },
    ...sessionRequired,
    404: { description: 'LicenceNotFound.', schema: errorBodySchema },
    409: {
      description:
        'ChangeRequestOpen: one is waiting already; NotPaidByInvoice: a card subscription is changed in the billing portal.',
      schema: errorBodySchema,
    },
    ...commonErrors,
  },
});

/** The licence page's sign-in, sign-out and "Release" (decision 229). */
export const licencePageRoutes = defineRoutes(
  [
    requestCodeRoute,
    signInRoute,
    signInLinkRoute,
    signOutRoute,
    releaseOrgRoute,
    replaceKeyRoute,
    createTokenRoute,
    revokeTokenRoute,
    changeRequestRoute,
  ],
  (deps: FeaturePorts) => {
    const app = new Hono<AppEnv>();
    const secure = deps.env.PUBLIC_BASE_URL.startsWith('https:');
    const serviceDeps = {
      db: deps.database.db,
      secretKey: deps.secretKey,
      publicBaseUrl: deps.env.PUBLIC_BASE_URL,
      clock: deps.clock,
    };
    const keyDeps = {
      ...serviceDeps,
      accountBaseUrl: deps.env.ACCOUNT_API_URL ?? deps.env.PUBLIC_BASE_URL,
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

    /** The signed-in address for a page action, or the answer that refuses it. */
    const signedInAddress = async (
      c: Context<AppEnv>,
    ): Promise<{ ok: true; email: string } | { ok: false; response: Response }> => {
      const limited = await perClient(c, rateLimitRules.licencePageActionPerIp);
      if (limited) return { ok: false, response: limited };
      const session = await readSession(serviceDeps, readSessionCookie(c, secure));
      if (!session) {
        return {
          ok: false,
          response: c.json(
            {
              Error: errorCodes.licenceSessionRequired,
              message: licencePageMessages.sessionRequired,
            },
            401,
          ),
        };
      }
      return { ok: true, email: session.emailNormalized };
    };
    const licenceUnknown = (c: Context<AppEnv>) =>
      c.json(
        { Error: errorCodes.licenceNotFound, message: licencePageMessages.licenceUnknown },
        404,
      );

    replaceKeyRoute.handle(app, noQueryParameters, async (c, request) => {
      const signed = await signedInAddress(c);
      if (!signed.ok) return signed.response;
      const body = await request.body();
      if (!body.ok) return body.response;
      const result = await replaceOwnKey(keyDeps, signed.email, body.value);
      if (!result.ok) {
        return result.code === 'LicenceNotFound'
          ? licenceUnknown(c)
          : c.json(
              { Error: errorCodes.keyChanged, message: licencePageKeyMessages.keyChanged },
              409,
            );
      }
      deps.wakeOutbox();
      c.get('log').info({ licenceId: body.value.licenceId }, 'key replaced from the licence page');
      return c.json({
        key: result.key,
        maskedKey: result.maskedKey,
        endedTokens: result.endedTokens,
        keptTokens: result.keptTokens,
      });
    });

    createTokenRoute.handle(app, noQueryParameters, async (c, request) => {
      const signed = await signedInAddress(c);
      if (!signed.ok) return signed.response;
      const body = await request.body();
      if (!body.ok) return body.response;
      const result = await createOwnToken(keyDeps, signed.email, {
        ...body.value,
        from: {
          kind: 'self-service',
          ipAddress: rateLimitClient(c),
          userAgent: c.req.header('user-agent') ?? null,
        },
      });
      if (!result.ok) {
        return result.code === 'LicenceNotFound'
          ? licenceUnknown(c)
          : c.json(
              {
                Error: errorCodes.accessTokenLimitReached,
                message: licencePageKeyMessages.tokenLimit,
              },
              409,
            );
      }
      deps.wakeOutbox();
      return c.json(
        {
          id: result.id,
          name: result.name,
          hint: result.hint,
          createdAt: result.createdAt.toISOString(),
          token: result.token,
        },
        201,
      );
    });

    revokeTokenRoute.handle(app, noQueryParameters, async (c, request) => {
      const signed = await signedInAddress(c);
      if (!signed.ok) return signed.response;
      const body = await request.body();
      if (!body.ok) return body.response;
      const result = await revokeOwnToken(keyDeps, signed.email, body.value);
      if (!result.ok) {
        return result.code === 'LicenceNotFound'
          ? licenceUnknown(c)
          : c.json(
              {
                Error: errorCodes.accessTokenNotFound,
                message: licencePageKeyMessages.tokenUnknown,
              },
              404,
            );
      }
      return c.json({ id: result.id, alreadyRevoked: result.alreadyRevoked });
    });

    changeRequestRoute.handle(app, noQueryParameters, async (c, request) => {
      const signed = await signedInAddress(c);
      if (!signed.ok) return signed.response;
      const body = await request.body();
      if (!body.ok) return body.response;
      const result = await requestChange(serviceDeps, signed.email, body.value);
      if (!result.ok) {
        switch (result.code) {
          case 'LicenceNotFound':
            return licenceUnknown(c);
          case 'NotPaidByInvoice':
            return c.json(
              { Error: errorCodes.notPaidByInvoice, message: licencePageKeyMessages.notByInvoice },
              409,
            );
          case 'ChangeRequestOpen':
            return c.json(
              {
                Error: errorCodes.changeRequestOpen,
                message: licencePageKeyMessages.changeRequestOpen,
              },
              409,
            );
        }
      }
      return c.json(changeRequestView(result.request), 201);
    });

    return app;
  },
);
