import { setTimeout as sleep } from 'node:timers/promises';
import { Hono } from 'hono';
import {
  LOST_KEY_PATH,
  lostKeyRequestSchema,
  keyReplacedSchema,
  REPLACE_KEY_PATH,
  REPLACE_KEY_TOKENS_PATH,
  replaceKeyRequestSchema,
  replaceKeyTokensRequestSchema,
  replaceKeyTokensSchema,
} from '#shared/contracts/licence-recovery.ts';
import type { LicensingPorts } from '#server/licensing/licensing-ports.ts';
import type { AppEnv } from '#server/platform/http/types.ts';
import { normalizeEmailAddress } from '#server/platform/email/normalize-email-address.ts';
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
import { rateLimitClient } from '#server/platform/rate-limit/client-ip.ts';
import { rateLimitRules } from '#server/platform/rate-limit/rate-limit-rules.ts';
import { listTokensForReplacement, replaceLicenceKey } from './replace-licence-key.ts';
import { sendLostKeyEmail } from './send-lost-key-email.ts';
import { defineRoute, defineRoutes } from '#server/platform/api-doc/define-route.ts';

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

const requestLostLicenceKeyRoute = defineRoute({
  method: 'post',
  path: LOST_KEY_PATH,
  auth: 'csrf',
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
});

const replaceLicenceKeyRoute = defineRoute({
  method: 'post',
  path: REPLACE_KEY_PATH,
  auth: 'csrf',
  operationId: 'replaceLicenceKey',
  tag: 'Lost licence key',
  summary: 'Replace a licence key with the link token of the lost-key e-mail',
  description:
    'The new key is e-mailed to the licence address; the old key stops working at once, and so does every access token of the licence except those named in `keepTokenIds` (decision 212).',
  request: { body: replaceKeyRequestSchema },
  responses: {
    200: {
      description: 'The key was replaced; the new one is on its way.',
      schema: keyReplacedSchema,
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
});

const listReplaceableTokensRoute = defineRoute({
  method: 'post',
  path: REPLACE_KEY_TOKENS_PATH,
  auth: 'csrf',
  operationId: 'listReplaceableAccessTokens',
  tag: 'Lost licence key',
  summary: 'List the access tokens a key replacement would end',
  description:
    'With the link token of the lost-key e-mail: the active access tokens of its licence, oldest first, so that the replacement page can offer to keep named ones.',
  request: { body: replaceKeyTokensRequestSchema },
  responses: {
    200: { description: 'The active tokens, by name.', schema: replaceKeyTokensSchema },
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
});

const linkInvalid = {
  Error: 'KeyReplacementLinkInvalid',
  message: 'This link has expired or was already used. Request a new one.',
} as const;

/** "Lost your licence key?" (decision 075): request a link, then replace the key with it. */
export const licenceRecoveryRoutes = defineRoutes(
  [requestLostLicenceKeyRoute, listReplaceableTokensRoute, replaceLicenceKeyRoute],
  (deps: LicensingPorts) => {
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

    requestLostLicenceKeyRoute.handle(app, noQueryParameters, async (c, request) => {
      const started = performance.now();
      const limitedByIp = await enforceRateLimits(
        c,
        limiter,
        [{ rule: rateLimitRules.resendPerIp, subject: rateLimitClient(c) }],
        { pacing: true },
      );
      if (limitedByIp) return limitedByIp;
      const body = await request.body();
      if (!body.ok) return body.response;
      const limitedByAddress = await enforceRateLimits(
        c,
        limiter,
        [
          {
            rule: rateLimitRules.resendPerEmail,
            subject: normalizeEmailAddress(body.value.emailAddress),
          },
        ],
        { pacing: true },
      );
      if (limitedByAddress) return limitedByAddress;
      const queued = await sendLostKeyEmail(serviceDeps, body.value.emailAddress);
      if (queued > 0) deps.wakeOutbox();
      await sleep(Math.max(0, started + LOST_KEY_MIN_ANSWER_MS - performance.now()));
      return c.body(null, 202);
    });

    listReplaceableTokensRoute.handle(app, noQueryParameters, async (c, request) => {
      const limited = await enforceRateLimits(
        c,
        limiter,
        [{ rule: rateLimitRules.replaceKeyPerIp, subject: rateLimitClient(c) }],
        { pacing: true },
      );
      if (limited) return limited;
      const body = await request.body();
      if (!body.ok) return body.response;
      const result = await listTokensForReplacement(serviceDeps, body.value.token);
      if (!result.ok) return c.json(linkInvalid, 410);
      c.header('Cache-Control', 'no-store');
      return c.json({
        tokens: result.tokens.map((token) => ({
          id: token.id,
          name: token.name,
          hint: token.tokenHint,
          createdAt: token.createdAt.toISOString(),
          lastUsedAt: token.lastUsedAt?.toISOString() ?? null,
        })),
      });
    });

    replaceLicenceKeyRoute.handle(app, noQueryParameters, async (c, request) => {
      const limited = await enforceRateLimits(
        c,
        limiter,
        [{ rule: rateLimitRules.replaceKeyPerIp, subject: rateLimitClient(c) }],
        { pacing: true },
      );
      if (limited) return limited;
      const body = await request.body();
      if (!body.ok) return body.response;
      const result = await replaceLicenceKey(
        serviceDeps,
        body.value.token,
        body.value.keepTokenIds ?? [],
      );
      if (!result.ok) return c.json(linkInvalid, 410);
      deps.wakeOutbox();
      c.get('log').info(
        {
          licenceId: result.licence.id,
          endedTokens: result.endedTokens,
          keptTokens: result.keptTokens,
        },
        'licence key replaced by its owner',
      );
      return c.json({
        sentTo: maskAddress(result.licence.email),
        endedTokens: result.endedTokens,
        keptTokens: result.keptTokens,
      });
    });

    return app;
  },
);
