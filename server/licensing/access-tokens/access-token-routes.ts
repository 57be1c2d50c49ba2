import { attribute, customerActor } from '#server/platform/audit/audit-context.ts';
import { type Context, Hono } from 'hono';
import { errorCodes } from '#shared/contracts/error-codes.ts';
import type { LicensingPorts } from '#server/licensing/licensing-ports.ts';
import type { AppEnv } from '#server/platform/http/types.ts';
import { checkLicence, noOrgUsage } from '../licences/check-licence.ts';
import { hashLicenceKey, parseLicenceKey } from '../licences/licence-key.ts';
import { createLicenceRepository, type Licence } from '../licences/licence-repository.ts';
import {
  noQueryParameters,
  errorBodySchema,
  invalidRequestErrorSchema,
  payloadTooLargeErrorSchema,
  rateLimitHeadersDoc,
  tooManyRequestsErrorSchema,
  unsupportedMediaTypeErrorSchema,
} from '#server/platform/api-doc/common-errors.ts';
import { enforceRateLimits } from '#server/platform/rate-limit/enforce-rate-limits.ts';
import { clientIp, rateLimitClient } from '#server/platform/rate-limit/client-ip.ts';
import { rateLimitRules } from '#server/platform/rate-limit/rate-limit-rules.ts';
import {
  createAccessTokenRequestSchema,
  listAccessTokensRequestSchema,
  revokeAccessTokenRequestSchema,
  accessTokenInfoSchema,
  accessTokenListSchema,
  createdAccessTokenSchema,
} from './access-token-contract.ts';
import { accessTokenInfo } from './access-token-info.ts';
import { createAccessTokenRepository } from './access-token-repository.ts';
import { createAccessToken, MAX_ACTIVE_TOKENS_PER_LICENCE } from './create-access-token.ts';
import { revokeAccessToken } from './revoke-access-token.ts';
import { accessTokenExamples } from '#server/licensing/cli-flow-examples.ts';
import { defineRoute, defineRoutes } from '#server/platform/api-doc/define-route.ts';

export const ACCESS_TOKENS_PATH = '/account/v1/access-tokens';

const unknownKey = {
  Error: errorCodes.licenseKeyUnknown,
  message: 'This license key was not recognized.',
};

const commonErrors = {
  400: { description: 'Malformed JSON or fields.', schema: invalidRequestErrorSchema },
  413: { description: 'The body is larger than 16 KiB.', schema: payloadTooLargeErrorSchema },
  415: { description: 'The body is not JSON.', schema: unsupportedMediaTypeErrorSchema },
  429: {
    description: 'Too many requests.',
    schema: tooManyRequestsErrorSchema,
    headers: rateLimitHeadersDoc,
  },
};

const createAccessTokenRoute = defineRoute({
  method: 'post',
  path: ACCESS_TOKENS_PATH,
  auth: 'licenceKey',
  operationId: 'createAccessToken',
  tag: 'Access tokens',
  summary: 'Create an access token for a licence (shown once)',
  description:
    "For CI: the CLI accepts the token instead of the licence key (`Authorization: Bearer` on the validation endpoint). Only a keyed hash is stored, so the token appears in this answer only. The licence address is e-mailed the token's name, time and client; the token ends when the key is replaced (unless kept) or the licence is revoked (decision 212).",
  request: {
    body: createAccessTokenRequestSchema,
    bodyExamples: accessTokenExamples.createRequest,
  },
  responses: {
    201: {
      description: 'The new token.',
      schema: createdAccessTokenSchema,
      examples: accessTokenExamples.created,
    },
    ...commonErrors,
    404: { description: 'LicenseKeyUnknown: no licence has this key.', schema: errorBodySchema },
    409: {
      description:
        'LicenseInactive (the licence is expired, deactivated or pending deletion) or AccessTokenLimitReached.',
      schema: errorBodySchema,
    },
  },
});

const listAccessTokensRoute = defineRoute({
  method: 'post',
  path: `${ACCESS_TOKENS_PATH}/list`,
  auth: 'licenceKey',
  operationId: 'listAccessTokens',
  tag: 'Access tokens',
  summary: 'List the access tokens of a licence',
  description: 'A POST so that the licence key never appears in a URL or an access log.',
  request: {
    body: listAccessTokensRequestSchema,
    bodyExamples: accessTokenExamples.listRequest,
  },
  responses: {
    200: {
      description: 'Tokens, newest first, revoked ones included.',
      schema: accessTokenListSchema,
      examples: accessTokenExamples.list,
    },
    ...commonErrors,
    404: { description: 'LicenseKeyUnknown.', schema: errorBodySchema },
  },
});

const revokeAccessTokenRoute = defineRoute({
  method: 'post',
  path: `${ACCESS_TOKENS_PATH}/revoke`,
  auth: 'licenceKey',
  operationId: 'revokeAccessToken',
  tag: 'Access tokens',
  summary: 'Revoke an access token',
  description:
    'Send the token itself, or the licence key and the token id. Validations with a revoked token answer NOT_FOUND. Revoking twice is not an error.',
  request: {
    body: revokeAccessTokenRequestSchema,
    bodyExamples: accessTokenExamples.revokeRequest,
  },
  responses: {
    200: {
      description: 'The revoked token.',
      schema: accessTokenInfoSchema,
      examples: accessTokenExamples.revoked,
    },
    ...commonErrors,
    404: { description: 'LicenseKeyUnknown or AccessTokenUnknown.', schema: errorBodySchema },
  },
});

/**
 * Self-service access tokens for CI (decision 074): the licence key authenticates, a token is
 * returned once. Machines call these, so they declare `licenceKey` and the CSRF check passes them.
 */
export const accessTokenRoutes = defineRoutes(
  [createAccessTokenRoute, listAccessTokensRoute, revokeAccessTokenRoute],
  (deps: LicensingPorts) => {
    const app = new Hono<AppEnv>();
    const db = deps.database.db;
    const limiter = deps.rateLimiter;
    const licences = createLicenceRepository(db);

    async function licenceOf(c: Context<AppEnv>, key: string): Promise<Licence | Response> {
      const parsed = parseLicenceKey(key);
      const keyHash = parsed.ok ? hashLicenceKey(deps.secretKey, parsed.key) : undefined;
      const limited = await enforceRateLimits(
        c,
        limiter,
        [
          { rule: rateLimitRules.accessTokensPerIp, subject: rateLimitClient(c) },
          // However the key is spelled (dashes, case), one licence has one budget, as in validation.
          { rule: rateLimitRules.accessTokensPerLicence, subject: keyHash ?? `raw:${key}` },
        ],
        { pacing: true },
      );
      if (limited) return limited;
      const licence = keyHash ? await licences.findByKeyHash(keyHash) : undefined;
      if (!licence) return c.json(unknownKey, 404);
      // The key's holder acts: their changes are audited as theirs (decision 224).
      attribute({ actor: customerActor(licence.emailNormalized) });
      return licence;
    }

    createAccessTokenRoute.handle(app, noQueryParameters, async (c, request) => {
      const body = await request.body();
      if (!body.ok) return body.response;
      const licence = await licenceOf(c, body.value.licenseKey);
      if (licence instanceof Response) return licence;
      const now = deps.clock();
      const state = checkLicence(licence, licence.productId, noOrgUsage, now);
      if (state.code !== 'VALID') {
        return c.json({ Error: 'LicenseInactive', message: state.detail }, 409);
      }
      const result = await createAccessToken(
        { db, secretKey: deps.secretKey, publicBaseUrl: deps.env.PUBLIC_BASE_URL },
        {
          licenceId: licence.id,
          name: body.value.name,
          from: {
            kind: 'self-service',
            ipAddress: clientIp(c),
            userAgent: c.req.header('user-agent') ?? null,
          },
        },
        now,
      );
      if (!result.ok && result.code === 'LicenceUnknown') return c.json(unknownKey, 404);
      if (!result.ok) {
        return c.json(
          {
            Error: result.code,
            message: `A licence can have at most ${MAX_ACTIVE_TOKENS_PER_LICENCE} active access tokens. Revoke one first.`,
          },
          409,
        );
      }
      deps.wakeOutbox();
      c.get('log').info(
        { licenceId: licence.id, tokenId: result.record.id },
        'access token created',
      );
      c.header('Cache-Control', 'no-store');
      return c.json({ ...accessTokenInfo(result.record), token: result.token }, 201);
    });

    listAccessTokensRoute.handle(app, noQueryParameters, async (c, request) => {
      const body = await request.body();
      if (!body.ok) return body.response;
      const licence = await licenceOf(c, body.value.licenseKey);
      if (licence instanceof Response) return licence;
      const tokens = await createAccessTokenRepository(db).listForLicence(licence.id);
      c.header('Cache-Control', 'no-store');
      return c.json({ tokens: tokens.map(accessTokenInfo) });
    });

    revokeAccessTokenRoute.handle(app, noQueryParameters, async (c, request) => {
      const body = await request.body();
      if (!body.ok) return body.response;
      let selector: { token: string } | { id: string; licenceId: string };
      if ('token' in body.value) {
        const limited = await enforceRateLimits(
          c,
          limiter,
          [{ rule: rateLimitRules.accessTokensPerIp, subject: rateLimitClient(c) }],
          { pacing: true },
        );
        if (limited) return limited;
        selector = { token: body.value.token };
      } else {
        const licence = await licenceOf(c, body.value.licenseKey);
        if (licence instanceof Response) return licence;
        selector = { id: body.value.id, licenceId: licence.id };
      }
      const result = await revokeAccessToken(
        { db, secretKey: deps.secretKey },
        selector,
        deps.clock(),
      );
      if (!result.ok) {
        return c.json({ Error: result.code, message: 'No such access token.' }, 404);
      }
      if (!result.alreadyRevoked) {
        c.get('log').info({ tokenId: result.record.id }, 'access token revoked');
      }
      return c.json(accessTokenInfo(result.record));
    });

    return app;
  },
);
