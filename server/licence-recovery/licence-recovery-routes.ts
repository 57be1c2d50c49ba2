import { setTimeout as sleep } from 'node:timers/promises';
import { Hono } from 'hono';
import { z } from 'zod';
import {
  LOST_KEY_PATH,
  lostKeyRequestSchema,
  REPLACE_KEY_PATH,
  replaceKeyRequestSchema,
} from '#shared/licence-recovery/contract.ts';
import type { AppDeps } from '../deps.ts';
import { readJsonBody } from '../http/request-input.ts';
import type { AppEnv } from '../http/types.ts';
import { normalizeEmailAddress } from '../licences/normalize-email-address.ts';
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
import { replaceLicenceKey } from './replace-licence-key.ts';
import { sendLostKeyEmail } from './send-lost-key-email.ts';

const HOUR = 3600;
const rules = {
  resendPerIp: { name: 'resend:ip', limit: 20, windowSeconds: HOUR },
  resendPerEmail: { name: 'resend:email', limit: 3, windowSeconds: HOUR },
  replacePerIp: { name: 'replace-key:ip', limit: 20, windowSeconds: HOUR },
};

/**
 * The lost-key answer takes at least this long, known address or not, so its timing does not
 * tell whether licences exist (the e-mail work of a known address fits well within it).
 */
export const LOST_KEY_MIN_ANSWER_MS = 400;

/** Masks an address for display to whoever holds a link: `j•••@example.com`. */
function maskAddress(address: string): string {
  const at = address.lastIndexOf('@');
  return at < 1 ? '•••' : `${address.charAt(0)}•••${address.slice(at)}`;
}

/** "Lost your licence key?" (decision 075): request a link, then replace the key with it. */
export function licenceRecoveryRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const db = deps.database.db;
  const limiter = deps.rateLimiter;
  const serviceDeps = {
    db,
    secretKey: deps.secretKey,
    publicBaseUrl: deps.env.PUBLIC_BASE_URL,
    accountBaseUrl: deps.env.ACCOUNT_API_URL ?? deps.env.PUBLIC_BASE_URL,
    clock: deps.clock,
  };

  app.post(LOST_KEY_PATH, noQueryParameters, async (c) => {
    const started = performance.now();
    const limitedByIp = await applyRateLimits(c, limiter, [
      { rule: rules.resendPerIp, subject: clientIp(c) },
    ]);
    if (limitedByIp) return limitedByIp;
    const body = await readJsonBody(c, lostKeyRequestSchema);
    if (!body.ok) return body.response;
    const limitedByAddress = await applyRateLimits(c, limiter, [
      { rule: rules.resendPerEmail, subject: normalizeEmailAddress(body.value.emailAddress) },
    ]);
    if (limitedByAddress) return limitedByAddress;
    const queued = await sendLostKeyEmail(serviceDeps, body.value.emailAddress);
    if (queued > 0) deps.wakeOutbox();
    await sleep(Math.max(0, started + LOST_KEY_MIN_ANSWER_MS - performance.now()));
    return c.body(null, 202);
  });

  app.post(REPLACE_KEY_PATH, noQueryParameters, async (c) => {
    const limited = await applyRateLimits(c, limiter, [
      { rule: rules.replacePerIp, subject: clientIp(c) },
    ]);
    if (limited) return limited;
    const body = await readJsonBody(c, replaceKeyRequestSchema);
    if (!body.ok) return body.response;
    const result = await replaceLicenceKey(serviceDeps, body.value.token);
    if (!result.ok) {
      return c.json(
        {
          Error: result.code,
          message: 'This link has expired or was already used. Request a new one.',
        },
        410,
      );
    }
    deps.wakeOutbox();
    c.get('log').info({ licenceId: result.licence.id }, 'licence key replaced by its owner');
    return c.json({ sentTo: maskAddress(result.licence.email) });
  });

  return app;
}

export const licenceRecoveryApiDocs = defineApiDocs([
  {
    method: 'post',
    path: LOST_KEY_PATH,
    operationId: 'requestLostLicenceKey',
    tag: 'Lost licence key',
    summary: 'E-mail a link to replace the key of every licence of an address',
    description:
      'Answers 202 whether or not licences exist for the address, and takes the same time either way. When they do, the address each licence was issued to receives a link per licence (24 hours, single use) that replaces its key.',
    request: { body: lostKeyRequestSchema },
    responses: {
      202: { description: 'Accepted; nothing is revealed about the address.' },
      400: { description: 'Malformed JSON or e-mail address.', schema: invalidRequestErrorSchema },
      413: { description: 'The body is larger than 16 KiB.', schema: payloadTooLargeErrorSchema },
      415: { description: 'The body is not JSON.', schema: unsupportedMediaTypeErrorSchema },
      429: {
        description: 'Too many requests from this address or for this e-mail address.',
        schema: tooManyRequestsErrorSchema,
        headers: rateLimitHeadersDoc,
      },
    },
  },
  {
    method: 'post',
    path: REPLACE_KEY_PATH,
    operationId: 'replaceLicenceKey',
    tag: 'Lost licence key',
    summary: 'Replace a licence key with the link token of the lost-key e-mail',
    description:
      'The new key is e-mailed to the licence address; the old key stops working at once. Access tokens keep working.',
    request: { body: replaceKeyRequestSchema },
    responses: {
      200: {
        description: 'The key was replaced; the new one is on its way.',
        schema: z
          .object({ sentTo: z.string().describe('The licence address, masked.') })
          .meta({ id: 'LicenceKeyReplaced' }),
      },
      400: { description: 'Malformed JSON or token.', schema: invalidRequestErrorSchema },
      410: {
        description: 'KeyReplacementLinkInvalid: expired, already used, or not ours.',
        schema: errorBodySchema,
      },
      413: { description: 'The body is larger than 16 KiB.', schema: payloadTooLargeErrorSchema },
      415: { description: 'The body is not JSON.', schema: unsupportedMediaTypeErrorSchema },
      429: {
        description: 'Too many requests from this address.',
        schema: tooManyRequestsErrorSchema,
        headers: rateLimitHeadersDoc,
      },
    },
  },
]);
