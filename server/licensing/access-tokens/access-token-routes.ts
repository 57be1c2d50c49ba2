import type { Context } from 'hono';
import { Hono } from 'hono';
import { errorCodes } from '#shared/contracts/error-codes.ts';
import type { AppDeps } from '#server/deps.ts';
import { readJsonBody } from '#server/platform/http/request-input.ts';
import type { AppEnv } from '#server/platform/http/types.ts';
import { checkLicence } from '../licence-validation/check-licence.ts';
import { hashLicenceKey, parseLicenceKey } from '../licences/licence-key.ts';
import { createLicenceRepository, type Licence } from '../licences/licence-repository.ts';
import { noQueryParameters } from '#server/platform/api-doc/common-errors.ts';
import { enforceRateLimits } from '#server/platform/rate-limit/enforce-rate-limits.ts';
import { rateLimitClient } from '#server/platform/rate-limit/client-ip.ts';
import { rateLimitRules } from '#server/platform/rate-limit/rate-limit-rules.ts';
import {
  createAccessTokenRequestSchema,
  listAccessTokensRequestSchema,
  revokeAccessTokenRequestSchema,
} from './access-token-contract.ts';
import { accessTokenInfo } from './access-token-info.ts';
import { createAccessTokenRepository } from './access-token-repository.ts';
import { createAccessToken, MAX_ACTIVE_TOKENS_PER_LICENCE } from './create-access-token.ts';
import { revokeAccessToken } from './revoke-access-token.ts';

export const ACCESS_TOKENS_PATH = '/account/v1/access-tokens';

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
}

const noOrg = { orgId: null, known: false, inUse: 0, limit: null };
