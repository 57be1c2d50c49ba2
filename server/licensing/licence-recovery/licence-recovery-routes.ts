import { setTimeout as sleep } from 'node:timers/promises';
import { Hono } from 'hono';
import {
  LOST_KEY_PATH,
  lostKeyRequestSchema,
  REPLACE_KEY_PATH,
  replaceKeyRequestSchema,
} from '#shared/contracts/licence-recovery.ts';
import type { AppDeps } from '#server/deps.ts';
import { readJsonBody } from '#server/platform/http/request-input.ts';
import type { AppEnv } from '#server/platform/http/types.ts';
import { normalizeEmailAddress } from '#server/platform/email/normalize-email-address.ts';
import { noQueryParameters } from '#server/platform/api-doc/common-errors.ts';
import { enforceRateLimits } from '#server/platform/rate-limit/enforce-rate-limits.ts';
import { rateLimitClient } from '#server/platform/rate-limit/client-ip.ts';
import { rateLimitRules } from '#server/platform/rate-limit/rate-limit-rules.ts';
import { replaceLicenceKey } from './replace-licence-key.ts';
import { sendLostKeyEmail } from './send-lost-key-email.ts';

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
    const limitedByIp = await enforceRateLimits(
      c,
      limiter,
      [{ rule: rateLimitRules.resendPerIp, subject: rateLimitClient(c) }],
      { pacing: true },
    );
    if (limitedByIp) return limitedByIp;
    const body = await readJsonBody(c, lostKeyRequestSchema);
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

  app.post(REPLACE_KEY_PATH, noQueryParameters, async (c) => {
    const limited = await enforceRateLimits(
      c,
      limiter,
      [{ rule: rateLimitRules.replaceKeyPerIp, subject: rateLimitClient(c) }],
      { pacing: true },
    );
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
