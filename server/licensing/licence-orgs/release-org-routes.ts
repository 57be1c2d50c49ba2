import { type Context, Hono } from 'hono';
import { z } from 'zod';
import { errorCodes } from '#shared/contracts/error-codes.ts';
import { siteConfig } from '#shared/site-config.ts';
import type { LicensingPorts } from '#server/licensing/licensing-ports.ts';
import { releaseOrgExamples } from '#server/licensing/cli-flow-examples.ts';
import { defineRoute, defineRoutes } from '#server/platform/api-doc/define-route.ts';
import {
  errorBodySchema,
  invalidRequestErrorSchema,
  noQueryParameters,
  payloadTooLargeErrorSchema,
  rateLimitHeadersDoc,
  tooManyRequestsErrorSchema,
  unsupportedMediaTypeErrorSchema,
} from '#server/platform/api-doc/common-errors.ts';
import { attribute, customerActor } from '#server/platform/audit/audit-context.ts';
import type { AppEnv } from '#server/platform/http/types.ts';
import { enforceRateLimits } from '#server/platform/rate-limit/enforce-rate-limits.ts';
import { rateLimitClient } from '#server/platform/rate-limit/client-ip.ts';
import { rateLimitRules } from '#server/platform/rate-limit/rate-limit-rules.ts';
import { hashAccessToken } from '../access-tokens/access-token.ts';
import { createAccessTokenRepository } from '../access-tokens/access-token-repository.ts';
import { hashLicenceKey, parseLicenceKey } from '../licences/licence-key.ts';
import { createLicenceRepository } from '../licences/licence-repository.ts';
import { releaseOrgRequestSchema, releasedOrgSchema } from './release-org-contract.ts';
import {
  ORG_RELEASE_WINDOW_DAYS,
  ORG_RELEASES_PER_WINDOW,
  releaseLicenceOrg,
} from './release-licence-org.ts';

export const RELEASE_ORG_PATH = '/account/v1/licenses/release-org';

const releaseOrgRoute = defineRoute({
  method: 'post',
  path: RELEASE_ORG_PATH,
  auth: 'accessToken',
  operationId: 'releaseOrg',
  tag: 'Licence validation',
  summary: 'Release an org from the licence (after a sandbox refresh)',
  description: `A refreshed sandbox comes back with a new org id while the old one keeps its slot for 30 days; releasing the old id frees the slot at once (every instance within the validation cache's window), and the org is admitted again as a new one if it validates later. At most ${ORG_RELEASES_PER_WINDOW} releases per licence in ${ORG_RELEASE_WINDOW_DAYS} days; after that, support releases orgs (decision 228). Send the licence key as licenseKey, or an access token as \`Authorization: Bearer\`.`,
  request: { body: releaseOrgRequestSchema, bodyExamples: releaseOrgExamples.request },
  responses: {
    200: {
      description: 'The org no longer holds a slot.',
      schema: releasedOrgSchema,
      examples: releaseOrgExamples.released,
    },
    400: {
      description: 'Malformed JSON, a bad orgId, or both or neither credential.',
      schema: invalidRequestErrorSchema,
    },
    404: {
      description:
        'LicenseKeyUnknown: no licence has this key or token; OrgNotInUse: the org holds no slot of the licence.',
      schema: errorBodySchema,
    },
    409: {
      description: `OrgReleaseLimit: ${ORG_RELEASES_PER_WINDOW} orgs were released in the last ${ORG_RELEASE_WINDOW_DAYS} days; the message says when the next is possible and how to reach support.`,
      schema: errorBodySchema,
    },
    413: { description: 'The body is larger than 16 KiB.', schema: payloadTooLargeErrorSchema },
    415: { description: 'The body is not JSON.', schema: unsupportedMediaTypeErrorSchema },
    429: {
      description: 'Too many requests.',
      schema: tooManyRequestsErrorSchema,
      headers: {
        ...rateLimitHeadersDoc,
        'Retry-After': { description: 'Seconds to wait.', schema: z.number().int() },
      },
    },
  },
});

const unknownCredential = {
  Error: errorCodes.licenseKeyUnknown,
  message: 'This license key or access token was not recognized.',
};

function invalid(c: Context<AppEnv>, message: string) {
  return c.json({ Error: errorCodes.invalidRequest, message, issues: [] }, 400);
}

/** `POST /account/v1/licenses/release-org` (decision 228). */
export const releaseOrgRoutes = defineRoutes([releaseOrgRoute], (deps: LicensingPorts) => {
  const app = new Hono<AppEnv>();
  const db = deps.database.db;

  releaseOrgRoute.handle(app, noQueryParameters, async (c, request) => {
    const header = c.req.header('authorization');
    const bearer = header === undefined ? undefined : /^Bearer +(\S+)\s*$/i.exec(header)?.[1];
    if (header !== undefined && !bearer) {
      return invalid(c, 'The Authorization header must be "Bearer <access token>".');
    }
    const body = await request.body();
    if (!body.ok) return body.response;
    const { licenseKey, orgId } = body.value;
    if (Boolean(licenseKey) === Boolean(bearer)) {
      return invalid(
        c,
        bearer
          ? 'Send either a licence key or an access token, not both.'
          : 'Send the licence key as licenseKey, or an access token as "Authorization: Bearer <token>".',
      );
    }
    const parsedKey = licenseKey ? parseLicenceKey(licenseKey) : undefined;
    const credentialHash = bearer
      ? hashAccessToken(deps.secretKey, bearer)
      : parsedKey?.ok
        ? hashLicenceKey(deps.secretKey, parsedKey.key)
        : undefined;
    const limited = await enforceRateLimits(
      c,
      deps.rateLimiter,
      [
        { rule: rateLimitRules.accessTokensPerIp, subject: rateLimitClient(c) },
        {
          rule: rateLimitRules.accessTokensPerLicence,
          subject: credentialHash ?? `raw:${licenseKey ?? ''}`,
        },
      ],
      { pacing: true },
    );
    if (limited) return limited;
    if (!credentialHash) return c.json(unknownCredential, 404);
    let licenceId: string | undefined;
    if (bearer) {
      const token = await createAccessTokenRepository(db).findByHash(credentialHash);
      licenceId = token && !token.revokedAt ? token.licenceId : undefined;
    } else {
      licenceId = (await createLicenceRepository(db).findByKeyHash(credentialHash))?.id;
    }
    const licence = licenceId ? await createLicenceRepository(db).findById(licenceId) : undefined;
    if (!licence) return c.json(unknownCredential, 404);
    attribute({ actor: customerActor(licence.emailNormalized) });

    const result = await releaseLicenceOrg(
      { db, clock: deps.clock },
      { licenceId: licence.id, orgId, by: 'customer' },
    );
    if (!result.ok) {
      switch (result.code) {
        case 'LicenceNotFound':
          return c.json(unknownCredential, 404);
        case 'OrgNotInUse':
          return c.json(
            {
              Error: errorCodes.orgNotInUse,
              message: `Org ${orgId} holds no slot of this licence: it has not validated it in the last 30 days.`,
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
    c.get('log').info({ licenceId: licence.id }, 'org released');
    return c.json({
      orgId: result.released.orgId,
      firstSeenAt: result.released.firstSeenAt.toISOString(),
      lastSeenAt: result.released.lastSeenAt.toISOString(),
      releasesLeft: result.customerReleases?.left ?? 0,
      releasesResetAt: result.customerReleases?.nextAt?.toISOString() ?? null,
    });
  });

  return app;
});
