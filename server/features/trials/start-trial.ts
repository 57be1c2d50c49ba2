import { siteConfig } from '#shared/site-config.ts';
import type { TrialRequestQuery } from '#shared/contracts/trial.ts';
import type { Database } from '#server/platform/db/database.ts';
import type { FeaturePorts } from '#server/features/feature-ports.ts';
import { createOutboxRepository } from '#server/platform/email/outbox-repository.ts';
import { trialLicenceEmail } from './emails/trial-licence.ts';
import { issueLicence } from '#server/licensing/licences/issue-licence.ts';
import { addMonths } from '#server/licensing/licences/licence-expiry.ts';
import { canonicalReferralCode, createReferralCodeRepository } from './referral-code-repository.ts';

/** Product rules (docs/product-rules.md#constants): a trial runs two months, with every feature (the Enterprise edition). */
export const TRIAL_MONTHS = 2;

export interface StartTrialDeps {
  db: Database;
  clock: () => Date;
  secretKey: string;
  publicBaseUrl: string;
  /** Base URL of the account service for the e-mail's CI paragraph; defaults to publicBaseUrl. */
  accountBaseUrl?: string;
}

export type StartTrialResult =
  | { ok: true; licenceId: string; expiresAt: Date }
  | { ok: false; code: 'ProductIdInvalid' | 'ReferralCodeInvalid' | 'TrialLicenseAlreadyUsed' };

/**
 * Issues a trial licence and queues its e-mail. Checks in order: the product is the CLI; the
 * referral code (if any) exists and is enabled — both before anything is written; then, inside
 * the transaction, the address never held a licence (decided by the claim's primary key).
 */
/** The trial domain's dependencies, from the app's. */
export function trialDepsOf(deps: FeaturePorts): StartTrialDeps {
  return {
    db: deps.database.db,
    clock: deps.clock,
    secretKey: deps.secretKey,
    publicBaseUrl: deps.env.PUBLIC_BASE_URL,
    accountBaseUrl: deps.env.ACCOUNT_API_URL ?? deps.env.PUBLIC_BASE_URL,
  };
}

export async function startTrial(
  deps: StartTrialDeps,
  request: TrialRequestQuery,
): Promise<StartTrialResult> {
  if (request.productId !== siteConfig.productId) return { ok: false, code: 'ProductIdInvalid' };
  let referralCode: string | null = null;
  if (request.referralCode) {
    const code = await createReferralCodeRepository(deps.db).find(request.referralCode);
    if (!code || code.disabled) return { ok: false, code: 'ReferralCodeInvalid' };
    referralCode = canonicalReferralCode(code.code);
  }

  const now = deps.clock();
  const expiresAt = addMonths(now, TRIAL_MONTHS);
  return deps.db.transaction(async (tx): Promise<StartTrialResult> => {
    const issued = await issueLicence(tx, deps.secretKey, {
      type: 'Trial',
      edition: 'Enterprise',
      email: request.emailAddress,
      productId: request.productId,
      expiresAt,
      referralCode,
      addressRule: 'first',
    });
    if (!issued.ok) return { ok: false, code: 'TrialLicenseAlreadyUsed' };
    const email = trialLicenceEmail({
      key: issued.key,
      email: issued.licence.email,
      expiresAt,
      publicBaseUrl: deps.publicBaseUrl,
      accountBaseUrl: deps.accountBaseUrl,
    });
    await createOutboxRepository(tx).enqueue(
      { ...email, kind: 'trial-licence', to: issued.licence.email },
      now,
    );
    return { ok: true, licenceId: issued.licence.id, expiresAt };
  });
}
