import { hash } from 'node:crypto';
import { Hono } from 'hono';
import { z } from 'zod';
import type { AppDeps } from '../deps.ts';
import { readJsonBody } from '../http/request-input.ts';
import type { AppEnv } from '../http/types.ts';
import { defineApiDocs } from '../openapi/api-doc.ts';
import {
  invalidRequestErrorSchema,
  payloadTooLargeErrorSchema,
  rateLimitHeadersDoc,
  tooManyRequestsErrorSchema,
  unexpectedQueryError,
  unsupportedMediaTypeErrorSchema,
} from '../openapi/common-errors.ts';
import { clientIp } from '../rate-limit/client-ip.ts';
import { countRateLimits } from '../rate-limit/apply-rate-limits.ts';
import type { LicenceCertificate } from '../licence-certificates/certificate-contract.ts';
import { createLookupCache } from './lookup-cache.ts';
import {
  identifyCredential,
  validateLicence,
  type Credential,
  type IdentifiedCredential,
} from './validate-licence.ts';
import type { LicenceForValidation } from './licence-validation-repository.ts';
import { validationAnswerSchema, validationRequestSchema } from './validation-contract.ts';

export const VALIDATE_PATH = '/account/v1/licenses/validate';

/** The bearer credential of `Authorization`, undefined when absent; null when malformed. */
function bearerToken(header: string | undefined): string | null | undefined {
  if (header === undefined) return undefined;
  const match = /^Bearer +(\S+)\s*$/i.exec(header);
  return match?.[1] ?? null;
}

/** `POST /account/v1/licenses/validate`: the CLI's licence check (decision 073). */
export function licenceValidationRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const limiter = deps.rateLimiter;
  const perMinute = deps.env.LICENSE_VALIDATION_RATE_LIMIT;
  const cacheOptions = {
    ttlMs: deps.env.LICENSE_VALIDATION_CACHE_SECONDS * 1000,
    maxEntries: 10_000,
    clock: deps.clock,
  };
  const cache = createLookupCache<Promise<LicenceForValidation | null>>(cacheOptions);
  const certificates = createLookupCache<LicenceCertificate>(cacheOptions);
  // Serialized answers: a CI burst of identical validations is answered from memory.
  const answers = createLookupCache<string>(cacheOptions);
  // Credentials already parsed and hashed, by a fingerprint of the text as sent (never the text).
  const identities = createLookupCache<IdentifiedCredential>(cacheOptions);
  const rules = {
    perCredential: { name: 'validate:credential', limit: perMinute, windowSeconds: 60 },
    perIp: { name: 'validate:ip', limit: perMinute * 4, windowSeconds: 60 },
  };

  app.post(VALIDATE_PATH, async (c) => {
    const queryError = c.req.url.includes('?') ? unexpectedQueryError(c.req.query()) : undefined;
    if (queryError) return c.json(queryError, 400);
    const bearer = bearerToken(c.req.header('authorization'));
    if (bearer === null) {
      return c.json(
        {
          Error: 'InvalidRequest',
          message: 'The Authorization header must be "Bearer <access token>".',
          issues: [],
        },
        400,
      );
    }
    const body = await readJsonBody(c, validationRequestSchema);
    if (!body.ok) return body.response;
    const { licenseKey, productId, orgId } = body.value;
    if (Boolean(licenseKey) === Boolean(bearer)) {
      return c.json(
        {
          Error: 'InvalidRequest',
          message: bearer
            ? 'Send either a licence key or an access token, not both.'
            : 'Send the licence key as licenseKey, or an access token as "Authorization: Bearer <token>".',
          issues: [],
        },
        400,
      );
    }
    const credential: Credential = bearer
      ? { kind: 'accessToken', token: bearer }
      : { kind: 'licenceKey', key: licenseKey ?? '' };
    const input = { credential, productId, orgId: orgId ?? null };
    const fingerprint = hash(
      'sha256',
      `${credential.kind}\n${bearer ?? licenseKey}\n${input.orgId ?? ''}`,
      'base64url',
    );
    let identified = identities.get(fingerprint);
    if (!identified) {
      identified = identifyCredential(deps.secretKey, credential, input.orgId);
      identities.set(fingerprint, identified);
    }
    let rateLimitHeaders: Record<string, string> = {};
    if (perMinute > 0) {
      const counted = await countRateLimits(c, limiter, [
        { rule: rules.perIp, subject: clientIp(c) },
        {
          rule: rules.perCredential,
          // However the key is spelled, it is one credential with one budget.
          subject:
            identified.kind === 'hashed'
              ? identified.credentialHash
              : `raw:${bearer ?? licenseKey}`,
        },
      ]);
      if (counted.refused) return counted.refused;
      rateLimitHeaders = counted.headers;
    }
    const answerKey = identified.kind === 'hashed' ? `${identified.cacheKey}|${productId}` : '';
    let json = answerKey ? answers.get(answerKey) : undefined;
    if (json === undefined) {
      const answer = await validateLicence(
        {
          db: deps.database.db,
          secretKey: deps.secretKey,
          signingKey: deps.licenceSigningKey,
          clock: deps.clock,
          cache,
          certificates,
        },
        input,
        identified,
      );
      json = JSON.stringify(answer);
      if (answerKey) answers.set(answerKey, json);
    }
    // A plain header object (not c.body's Headers instance) lets the Node adapter write it as is.
    return new Response(json, {
      status: 200,
      headers: {
        'Content-Type': 'application/json',
        'Cache-Control': 'no-store',
        'X-Content-Type-Options': 'nosniff',
        ...rateLimitHeaders,
      },
    });
  });

  return app;
}

export const licenceValidationApiDocs = defineApiDocs([
  {
    method: 'post',
    path: VALIDATE_PATH,
    operationId: 'validateLicense',
    tag: 'Licence validation',
    summary: 'Validate a licence key or access token for the CLI',
    description:
      'Checks run in this order and the first failure is answered: NOT_FOUND → PRODUCT_MISMATCH → PENDING_DELETION → DEACTIVATED (lapsed payment, or revoked by an operator, which payments do not lift) → EXPIRED → TOO_MANY_ORGS. A new `orgId` is admitted while the licence has fewer orgs in use (validated within 30 days) than it covers; orgs already in use keep working. Every valid answer carries a signed certificate (docs/licence-certificates.md). Invalid licences are answered with 200 and `valid: false`; 4xx statuses mean the request itself was wrong.',
    security: [{}, { accessToken: [] }],
    request: { body: validationRequestSchema },
    responses: {
      200: {
        description: 'The validation result (valid or not).',
        schema: validationAnswerSchema,
        headers: rateLimitHeadersDoc,
      },
      400: {
        description: 'Malformed JSON, unknown fields, a bad orgId, or both or neither credential.',
        schema: invalidRequestErrorSchema,
      },
      413: { description: 'The body is larger than 16 KiB.', schema: payloadTooLargeErrorSchema },
      415: { description: 'The body is not JSON.', schema: unsupportedMediaTypeErrorSchema },
      429: {
        description: 'Too many validations from this address or for this credential.',
        schema: tooManyRequestsErrorSchema,
        headers: {
          ...rateLimitHeadersDoc,
          'Retry-After': { description: 'Seconds to wait.', schema: z.number().int() },
        },
      },
    },
  },
]);
