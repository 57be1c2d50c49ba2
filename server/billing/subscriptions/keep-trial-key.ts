import type { KeepTrialKeyFacts, KeepTrialLinkStatus } from '#shared/contracts/keep-trial-key.ts';
import type { Executor } from '#server/platform/db/database.ts';
import {
  createOutboxRepository,
  type QueuedEmail,
} from '#server/platform/email/outbox-repository.ts';
import { normalizeEmailAddress } from '#server/platform/email/normalize-email-address.ts';
import {
  createLicenceRepository,
  type Licence,
} from '#server/licensing/licences/licence-repository.ts';
import { revokeLicence } from '#server/licensing/licences/revoke-licence.ts';
import { lifecycleEmail, trialConvertedEmail } from './emails/lifecycle-emails.ts';
import { verifyKeepTrialToken, type KeepTrialLink } from './keep-trial-link.ts';
import { createLifecycleRepository, lifecycleOf } from './lifecycle-repository.ts';
import { applySubscription, licenceChanged } from './lifecycle-rules.ts';
import {
  createSubscriptionRepository,
  termsOfRow,
  type SubscriptionRow,
} from './subscription-repository.ts';
import type { SyncDeps } from './sync-subscription.ts';

/** Recorded on the licence issued at purchase when its buyer keeps the trial key instead. */
const REPLACED_BY_TRIAL = 'replaced: the buyer kept their trial key (decision 213)';

interface KeepTrialState {
  link: KeepTrialLink;
  mirror: SubscriptionRow;
  trial: Licence;
  issued: Licence;
}

/**
 * What a keep-your-trial-key link may still do, checked in order: signature and expiry → the
 * subscription still has the licence issued at purchase (else the link was used) → that licence
 * is not revoked → the trial is an unconverted, unrevoked trial of the same (normalized) address.
 * Any failure: undefined, and the caller changes nothing.
 */
async function keepTrialState(
  db: Executor,
  deps: Pick<SyncDeps, 'secretKey'>,
  token: string | null,
  now: Date,
): Promise<KeepTrialState | undefined> {
  const link = token ? verifyKeepTrialToken(deps.secretKey, token, now) : undefined;
  if (!link) return undefined;
  const mirror = await createSubscriptionRepository(db).find(link.provider, link.subscriptionId);
  if (!mirror || mirror.licenceId !== link.issuedLicenceId || mirror.licenceOrigin !== 'issued') {
    return undefined;
  }
  const licences = createLicenceRepository(db);
  const issued = await licences.findById(link.issuedLicenceId);
  const trial = await licences.findById(link.trialLicenceId);
  if (!issued || issued.revokedAt || issued.subscriptionId !== link.subscriptionId)
    return undefined;
  if (!trial || trial.type !== 'Trial' || trial.subscriptionId !== null || trial.revokedAt) {
    return undefined;
  }
  if (normalizeEmailAddress(trial.email) !== normalizeEmailAddress(issued.email)) return undefined;
  return { link, mirror, trial, issued };
}

function factsOf(state: KeepTrialState): KeepTrialKeyFacts {
  return {
    email: state.trial.email,
    edition: state.issued.edition,
    quantity: state.issued.quantity,
    trialKeyHint: state.trial.keyHint,
    newKeyHint: state.issued.keyHint,
  };
}

/** What the link's page shows, read without using the link. */
export async function readKeepTrialLink(
  deps: Pick<SyncDeps, 'db' | 'secretKey' | 'clock'>,
  token: string | null,
): Promise<KeepTrialLinkStatus> {
  if (!token) return { state: 'missing' };
  const state = await keepTrialState(deps.db, deps, token, deps.clock());
  if (!state) return { state: 'invalid' };
  return {
    state: 'open',
    validUntil: state.link.expiresAt.toISOString().slice(0, 10),
    ...factsOf(state),
  };
}

export type KeepTrialKeyResult =
  | { ok: true; facts: KeepTrialKeyFacts; subscriptionId: string }
  | { ok: false; code: 'LinkInvalid' };

/**
 * The button of the link's page (decision 213): in one transaction, serialised with the
 * subscription's syncs, the trial becomes the subscription's licence with its terms, the licence
 * issued at purchase is untied and revoked, the mirror points at the trial, and the
 * trial-converted e-mail is queued. A link that no longer fits (used, trial converted or
 * revoked, expired, forged) changes nothing.
 */
export async function keepTrialKey(deps: SyncDeps, token: string): Promise<KeepTrialKeyResult> {
  const result = await deps.db.transaction(async (tx): Promise<KeepTrialKeyResult> => {
    const now = deps.clock();
    const link = verifyKeepTrialToken(deps.secretKey, token, now);
    if (!link) return { ok: false, code: 'LinkInvalid' };
    const subscriptions = createSubscriptionRepository(tx);
    await subscriptions.lock(link.provider, link.subscriptionId);
    const state = await keepTrialState(tx, deps, token, now);
    const terms = state ? termsOfRow(state.mirror) : null;
    if (!state || !terms) return { ok: false, code: 'LinkInvalid' };

    const lifecycle = createLifecycleRepository(tx);
    const { subscriptionId } = link;
    if (!(await lifecycle.detachSubscription(state.issued.id, subscriptionId, now))) {
      return { ok: false, code: 'LinkInvalid' };
    }
    await revokeLicence(tx, state.issued.id, now, REPLACED_BY_TRIAL);
    const attached = await lifecycle.attachSubscription(
      state.trial.id,
      { subscriptionId, customerId: state.mirror.customerId },
      now,
    );
    // Checked under the lock a moment ago: a trial taken meanwhile undoes all of the above.
    if (!attached) throw new Error(`trial ${state.trial.id} was taken during its conversion`);

    const change = applySubscription(lifecycleOf(state.trial), null, terms, now);
    let saved = state.trial;
    if (licenceChanged(lifecycleOf(state.trial), change.licence)) {
      saved = await lifecycle.saveLifecycle(state.trial.id, change.licence, now);
    }
    await subscriptions.moveLicence(
      link.provider,
      subscriptionId,
      { id: saved.id, origin: 'converted' },
      now,
    );

    const facts = { email: saved.email, edition: saved.edition, quantity: saved.quantity };
    const emails: QueuedEmail[] = [
      {
        kind: 'trial-converted',
        to: saved.email,
        ...trialConvertedEmail({
          licence: { ...facts, keyHint: saved.keyHint },
          renewsAt: terms.currentPeriodEnd,
          publicBaseUrl: deps.publicBaseUrl,
        }),
      },
    ];
    for (const event of change.events) {
      const email = lifecycleEmail(
        event,
        { ...facts, keyHint: saved.keyHint, paidUntil: saved.expiresAt },
        deps.publicBaseUrl,
      );
      if (email) emails.push(email);
    }
    const outbox = createOutboxRepository(tx);
    for (const email of emails) await outbox.enqueue(email, now);
    return { ok: true, facts: factsOf({ ...state, trial: saved }), subscriptionId };
  });
  if (result.ok) deps.wakeOutbox();
  return result;
}
