import { Hono, type Context } from 'hono';
import type { LicensingPorts } from '#server/licensing/licensing-ports.ts';

import type { AppEnv } from '#server/platform/http/types.ts';
import {
  unexpectedQueryError,
  invalidRequestErrorSchema,
  payloadTooLargeErrorSchema,
  rateLimitHeadersDoc,
  tooManyRequestsErrorSchema,
  unsupportedMediaTypeErrorSchema,
} from '#server/platform/api-doc/common-errors.ts';
import { rateLimitClient } from '#server/platform/rate-limit/client-ip.ts';
import { tooManyRequests } from '#server/platform/rate-limit/enforce-rate-limits.ts';
import { createLicenceValidator, licenceValidatorDepsOf } from './licence-validator.ts';
import type { Credential } from './validate-licence.ts';
import { validationRequestSchema, validationAnswerSchema } from './licence-validation-contract.ts';
import { z } from 'zod';
import { validateExamples } from '#server/licensing/cli-flow-examples.ts';
import {
  defineRoute,
  defineRoutes,
  type RouteInput,
} from '#server/platform/api-doc/define-route.ts';

export const VALIDATE_PATH = '/account/v1/licenses/validate';

/** The bearer credential of `Authorization`, undefined when absent; null when malformed. */
function bearerToken(header: string | undefined): string | null | undefined {
  if (header === undefined) return undefined;
  const match = /^Bearer +(\S+)\s*$/i.exec(header);
  return match?.[1] ?? null;
}

const validateLicenseRoute = defineRoute({
  method: 'post',
  path: VALIDATE_PATH,
  auth: 'accessToken',
  operationId: 'validateLicense',
  tag: 'Licence validation',
  summary: 'Validate a licence key or access token for the CLI',
  description:
    'Checks run in this order and the first failure is answered: NOT_FOUND → PRODUCT_MISMATCH → PENDING_DELETION → DEACTIVATED (lapsed payment, or revoked by an operator, which payments do not lift) → EXPIRED → TOO_MANY_ORGS. A new `orgId` is admitted while the licence has fewer orgs in use (validated within 30 days) than it covers; orgs already in use keep working. Every valid answer for a named `orgId` carries a signed certificate for that org and product only; the CLI accepts it offline only while it works on the same org and product (docs/licence-certificates.md). Without `orgId` the answer states the licence but carries no certificate. Invalid licences are answered with 200 and `valid: false`; 4xx statuses mean the request itself was wrong.',
  request: { body: validationRequestSchema, bodyExamples: validateExamples.request },
  responses: {
    200: {
      description: 'The validation result (valid or not).',
      schema: validationAnswerSchema,
      examples: validateExamples.answer,
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
});

/**
 * `POST /account/v1/licenses/validate`: the CLI's licence check (decision 073). The route reads
 * parse → validate → respond; `createLicenceValidator` does the work.
 */
export const licenceValidationRoutes = defineRoutes(
  [validateLicenseRoute],
  (deps: LicensingPorts) => {
    const app = new Hono<AppEnv>();
    const validator = createLicenceValidator(licenceValidatorDepsOf(deps));

    validateLicenseRoute.handle(app, async (c, input) => {
      const request = await parseValidationRequest(c, input);
      if (!request.ok) return request.response;
      const result = await validator.validate({ ...request.value, clientIp: rateLimitClient(c) });
      if (!result.ok) return tooManyRequests(c, result.retryAfterSeconds, result.headers);
      // A plain header object (not c.body's Headers instance) lets the Node adapter write it as is.
      return new Response(result.json, {
        status: 200,
        headers: {
          'Content-Type': 'application/json',
          'Cache-Control': 'no-store',
          'X-Content-Type-Options': 'nosniff',
          ...result.headers,
        },
      });
    });

    return app;
  },
);

/** The credential (key in the body, or bearer token), product and org of a validation request. */
async function parseValidationRequest(
  c: Context<AppEnv>,
  input: RouteInput<(typeof validateLicenseRoute)['doc']['request']>,
): Promise<
  | { ok: true; value: { credential: Credential; productId: string; orgId: string | null } }
  | { ok: false; response: Response }
> {
  const queryError = c.req.url.includes('?') ? unexpectedQueryError(c.req.query()) : undefined;
  if (queryError) return { ok: false, response: c.json(queryError, 400) };
  const bearer = bearerToken(c.req.header('authorization'));
  if (bearer === null) {
    return {
      ok: false,
      response: c.json(
        {
          Error: 'InvalidRequest',
          message: 'The Authorization header must be "Bearer <access token>".',
          issues: [],
        },
        400,
      ),
    };
  }
  const body = await input.body();
  if (!body.ok) return { ok: false, response: body.response };
  const { licenseKey, productId, orgId } = body.value;
  if (Boolean(licenseKey) === Boolean(bearer)) {
    return {
      ok: false,
      response: c.json(
        {
          Error: 'InvalidRequest',
          message: bearer
            ? 'Send either a licence key or an access token, not both.'
            : 'Send the licence key as licenseKey, or an access token as "Authorization: Bearer <token>".',
          issues: [],
        },
        400,
      ),
    };
  }
  const credential: Credential = bearer
    ? { kind: 'accessToken', token: bearer }
    : { kind: 'licenceKey', key: licenseKey ?? '' };
  return { ok: true, value: { credential, productId, orgId: orgId ?? null } };
}
