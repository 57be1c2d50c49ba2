import type { MiddlewareHandler } from 'hono';
import { z } from 'zod';
import type { ApiHeaderDoc } from './api-doc.ts';

const issuesSchema = z
  .array(z.object({ field: z.string(), message: z.string() }))
  .describe('One entry per refused field.');

/** Error answers several endpoints share; domains reference these in their docs. */
export const invalidRequestErrorSchema = z
  .object({
    Error: z.literal('InvalidRequest'),
    message: z.string(),
    issues: issuesSchema.optional(),
  })
  .meta({ id: 'InvalidRequestError', description: 'The request is malformed; message says why.' });

export const unsupportedMediaTypeErrorSchema = z
  .object({ Error: z.literal('UnsupportedMediaType'), message: z.string() })
  .meta({ id: 'UnsupportedMediaTypeError', description: 'The body must be application/json.' });

export const payloadTooLargeErrorSchema = z
  .object({ Error: z.literal('PayloadTooLarge'), message: z.string() })
  .meta({ id: 'PayloadTooLargeError', description: 'The body is too large.' });

export const tooManyRequestsErrorSchema = z
  .object({ Error: z.literal('TooManyRequests'), message: z.string() })
  .meta({ id: 'TooManyRequestsError', description: 'Rate limited; see Retry-After.' });

export const csrfErrorSchema = z
  .object({ Error: z.literal('CsrfTokenInvalid'), message: z.string() })
  .meta({
    id: 'CsrfTokenInvalidError',
    description: 'The X-XSRF-TOKEN header is missing or does not match the XSRF-TOKEN cookie.',
  });

export const consoleSessionErrorSchema = z
  .object({ Error: z.literal('ConsoleSessionRequired'), message: z.string() })
  .meta({
    id: 'ConsoleSessionRequiredError',
    description:
      'The endpoint is the operator console’s and the request carries no console session.',
  });

export const internalErrorSchema = z
  .object({ Error: z.literal('InternalError'), message: z.string() })
  .meta({ id: 'InternalError', description: 'An unexpected server error.' });

/**
 * Any error body: `{"Error": "<Code>", "message": "…"}`, with `issues` when fields were refused;
 * the response description names the codes.
 */
export const errorBodySchema = z
  .object({ Error: z.string(), message: z.string(), issues: issuesSchema.optional() })
  .meta({ id: 'ErrorBody', description: 'An error with its machine code.' });

/** What every console endpoint declared `{ permission }` may answer besides its own (decision 226). */
export const consoleDeniedResponses = {
  401: { description: 'No console session.', schema: consoleSessionErrorSchema },
  403: {
    description:
      'PermissionDenied (the permission named), or RecentVerificationRequired: ask for the passkey again.',
    schema: errorBodySchema,
  },
};

/** The headers of rate-limited endpoints. */
export const rateLimitHeadersDoc: Record<string, ApiHeaderDoc> = {
  'X-RateLimit-Limit': {
    description: 'Requests allowed in the current window (of the tightest limit).',
    schema: z.number().int(),
  },
  'X-RateLimit-Remaining': {
    description: 'Requests left in the current window.',
    schema: z.number().int(),
  },
  'X-RateLimit-Reset': {
    description: 'Seconds until the current window ends.',
    schema: z.number().int(),
  },
};

const noQuerySchema = z.strictObject({});

/** For endpoints without query parameters: the 400 body when some were sent, else undefined. */
export function unexpectedQueryError(
  query: Record<string, string>,
): z.infer<typeof invalidRequestErrorSchema> | undefined {
  if (noQuerySchema.safeParse(query).success) return undefined;
  return { Error: 'InvalidRequest', message: 'This endpoint takes no query parameters.' };
}

/** Route middleware for endpoints that take no query parameters: 400 when some were sent. */
export const noQueryParameters: MiddlewareHandler = async (c, next) => {
  const error = unexpectedQueryError(c.req.query());
  if (error) return c.json(error, 400);
  await next();
};
