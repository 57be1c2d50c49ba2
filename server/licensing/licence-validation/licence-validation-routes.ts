import { Hono, type Context } from 'hono';
import type { AppDeps } from '#server/deps.ts';
import { readJsonBody } from '#server/platform/http/request-input.ts';
import type { AppEnv } from '#server/platform/http/types.ts';
import { unexpectedQueryError } from '#server/platform/api-doc/common-errors.ts';
import { rateLimitClient } from '#server/platform/rate-limit/client-ip.ts';
import { tooManyRequests } from '#server/platform/rate-limit/enforce-rate-limits.ts';
import { createLicenceValidator, licenceValidatorDepsOf } from './licence-validator.ts';
import type { Credential } from './validate-licence.ts';
import { validationRequestSchema } from './licence-validation-contract.ts';

export const VALIDATE_PATH = '/account/v1/licenses/validate';

/** The bearer credential of `Authorization`, undefined when absent; null when malformed. */
function bearerToken(header: string | undefined): string | null | undefined {
  if (header === undefined) return undefined;
  const match = /^Bearer +(\S+)\s*$/i.exec(header);
  return match?.[1] ?? null;
}

/**
 * `POST /account/v1/licenses/validate`: the CLI's licence check (decision 073). The route reads
 * parse → validate → respond; `createLicenceValidator` does the work.
 */
export function licenceValidationRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const validator = createLicenceValidator(licenceValidatorDepsOf(deps));

  app.post(VALIDATE_PATH, async (c) => {
    const request = await parseValidationRequest(c);
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
}

/** The credential (key in the body, or bearer token), product and org of a validation request. */
async function parseValidationRequest(
  c: Context<AppEnv>,
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
  const body = await readJsonBody(c, validationRequestSchema);
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
