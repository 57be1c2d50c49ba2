import type { Context } from 'hono';
import { Hono } from 'hono';
import { errorCodes } from '#shared/contracts/error-codes.ts';
import type { AppDeps } from '../deps.ts';
import { readJsonBody } from '../http/request-input.ts';
import type { AppEnv } from '../http/types.ts';
import { checkLicence } from '../licence-validation/check-licence.ts';
import { hashLicenceKey, parseLicenceKey } from '../licences/licence-key.ts';
import { createLicenceRepository, type Licence } from '../licences/licence-repository.ts';
import { defineApiDocs } from '../openapi/api-doc.ts';
import {
  errorBodySchema,
  invalidRequestErrorSchema,
  noQueryParameters,
  payloadTooLargeErrorSchema,
  rateLimitHeadersDoc,
  tooManyRequestsErrorSchema,
  unsupportedMediaTypeErrorSchema,
} from '../openapi/common-errors.ts';
import { applyRateLimits } from '../rate-limit/apply-rate-limits.ts';
import { clientIp } from '../rate-limit/client-ip.ts';
import {
  accessTokenInfoSchema,
  accessTokenListSchema,
  createAccessTokenRequestSchema,
  createdAccessTokenSchema,
  listAccessTokensRequestSchema,
  revokeAccessTokenRequestSchema,
} from './access-token-contract.ts';
import { accessTokenInfo } from './access-token-info.ts';
import { createAccessTokenRepository } from './access-token-repository.ts';
import { createAccessToken, MAX_ACTIVE_TOKENS_PER_LICENCE } from './create-access-token.ts';
import { revokeAccessToken } from './revoke-access-token.ts';

export const ACCESS_TOKENS_PATH = '/account/v1/access-tokens';

const HOUR = 3600;
const rules = {
  perIp: { name: 'access-tokens:ip', limit: 60, windowSeconds: HOUR },
  perLicence: { name: 'access-tokens:licence', limit: 30, windowSeconds: HOUR },
};

const unknownKey = {
  Error: errorCodes.licenseKeyUnknown,
  message: 'This license key was not recognized.',
};

/**
 * Self-service access tokens for CI (decision 074): the licence key authenticates, a token is
 * returned once. Machines call these, so they are CSRF-exempt like the validation endpoint.
 */
export function accessTokenRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const db = deps.database.db;
  const limiter = deps.rateLimiter;
  const licences = createLicenceRepository(db);

  async function licenceOf(c: Context<AppEnv>, key: string): Promise<Licence | Response> {
    const limited = await applyRateLimits(c, limiter, [
      { rule: rules.perIp, subject: clientIp(c) },
      { rule: rules.perLicence, subject: key },
    ]);
    if (limited) return limited;
    const parsed = parseLicenceKey(key);
    const licence = parsed.ok
      ? await licences.findByKeyHash(hashLicenceKey(deps.secretKey, parsed.key))
      : undefined;
    return licence ?? c.json(unknownKey, 404);
  }

  app.post(ACCESS_TOKENS_PATH, noQueryParameters, async (c) => {
    const body = await readJsonBody(c, createAccessTokenRequestSchema);
    if (!body.ok) return body.response;
    const licence = await licenceOf(c, body.value.licenseKey);
    if (licence instanceof Response) return licence;
    const now = deps.clock();
    const state = checkLicence(licence, licence.productId, noOrg, now);
    if (state.code !== 'VALID') {
      return c.json({ Error: 'LicenseInactive', message: state.detail }, 409);
    }
    const result = await createAccessToken(
      { db, secretKey: deps.secretKey },
      { licenceId: licence.id, name: body.value.name, createdVia: 'self-service' },
      now,
    );
    if (!result.ok) {
      return c.json(
        {
          Error: result.code,
          message: `A licence can have at most ${MAX_ACTIVE_TOKENS_PER_LICENCE} active access tokens. Revoke one first.`,
        },
        409,
      );
    }
    c.get('log').info({ licenceId: licence.id, tokenId: result.record.id }, 'access token created');
    c.header('Cache-Control', 'no-store');
    return c.json({ ...accessTokenInfo(result.record), token: result.token }, 201);
  });

  app.post(`${ACCESS_TOKENS_PATH}/list`, noQueryParameters, async (c) => {
    const body = await readJsonBody(c, listAccessTokensRequestSchema);
    if (!body.ok) return body.response;
    const licence = await licenceOf(c, body.value.licenseKey);
    if (licence instanceof Response) return licence;
    const tokens = await createAccessTokenRepository(db).listForLicence(licence.id);
    c.header('Cache-Control', 'no-store');
    return c.json({ tokens: tokens.map(accessTokenInfo) });
  });

  app.post(`${ACCESS_TOKENS_PATH}/revoke`, noQueryParameters, async (c) => {
    const body = await readJsonBody(c, revokeAccessTokenRequestSchema);
    if (!body.ok) return body.response;
    let selector: { token: string } | { id: string; licenceId: string };
    if ('token' in body.value) {
      const limited = await applyRateLimits(c, limiter, [
        { rule: rules.perIp, subject: clientIp(c) },
      ]);
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
}

const noOrg = { orgId: null, known: false, inUse: 0, limit: null };

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

export const accessTokenApiDocs = defineApiDocs([
  {
    method: 'post',
    path: ACCESS_TOKENS_PATH,
    operationId: 'createAccessToken',
    tag: 'Access tokens',
    summary: 'Create an access token for a licence (shown once)',
    description:
      'For CI: the CLI accepts the token instead of the licence key (`Authorization: Bearer` on the validation endpoint). Only a keyed hash is stored, so the token appears in this answer only.',
    request: { body: createAccessTokenRequestSchema },
    responses: {
      201: { description: 'The new token.', schema: createdAccessTokenSchema },
      ...commonErrors,
      404: { description: 'LicenseKeyUnknown: no licence has this key.', schema: errorBodySchema },
      409: {
        description:
          'LicenseInactive (the licence is expired, deactivated or pending deletion) or AccessTokenLimitReached.',
        schema: errorBodySchema,
      },
    },
  },
  {
    method: 'post',
    path: `${ACCESS_TOKENS_PATH}/list`,
    operationId: 'listAccessTokens',
    tag: 'Access tokens',
    summary: 'List the access tokens of a licence',
    description: 'A POST so that the licence key never appears in a URL or an access log.',
    request: { body: listAccessTokensRequestSchema },
    responses: {
      200: {
        description: 'Tokens, newest first, revoked ones included.',
        schema: accessTokenListSchema,
      },
      ...commonErrors,
      404: { description: 'LicenseKeyUnknown.', schema: errorBodySchema },
    },
  },
  {
    method: 'post',
    path: `${ACCESS_TOKENS_PATH}/revoke`,
    operationId: 'revokeAccessToken',
    tag: 'Access tokens',
    summary: 'Revoke an access token',
    description:
      'Send the token itself, or the licence key and the token id. Validations with a revoked token answer NOT_FOUND. Revoking twice is not an error.',
    request: { body: revokeAccessTokenRequestSchema },
    responses: {
      200: { description: 'The revoked token.', schema: accessTokenInfoSchema },
      ...commonErrors,
      404: { description: 'LicenseKeyUnknown or AccessTokenUnknown.', schema: errorBodySchema },
    },
  },
]);
