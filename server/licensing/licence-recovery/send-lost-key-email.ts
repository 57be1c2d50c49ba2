import { REPLACE_KEY_PAGE } from '#shared/contracts/licence-recovery.ts';
import type { Database } from '#server/platform/db/database.ts';
import { createOutboxRepository } from '#server/platform/email/outbox-repository.ts';
import { createLicenceRepository, type Licence } from '../licences/licence-repository.ts';
import { normalizeEmailAddress } from '#server/platform/email/normalize-email-address.ts';
import { createKeyReplacementToken } from './key-replacement-token.ts';
import { lostKeyEmail } from './emails/lost-key-email.ts';

export interface SendLostKeyEmailDeps {
  db: Database;
  secretKey: string;
  publicBaseUrl: string;
  clock: () => Date;
}

/** Licences whose key is still worth having: not yet marked for deletion. */
function isRecoverable(licence: Licence, now: Date): boolean {
  return !licence.deletionScheduledAt || licence.deletionScheduledAt > now;
}

/**
 * "Lost your licence key?": when licences exist for the address, queues one e-mail per address
 * they were issued to, with a link per licence that replaces its key. Says nothing about whether
 * any exist — the caller answers the same either way. Returns the number of e-mails queued.
 */
export async function sendLostKeyEmail(
  deps: SendLostKeyEmailDeps,
  emailAddress: string,
): Promise<number> {
  const now = deps.clock();
  const found = await createLicenceRepository(deps.db).findByNormalizedEmail(
    normalizeEmailAddress(emailAddress),
  );
  const recoverable = found.filter((licence) => isRecoverable(licence, now));
  if (recoverable.length === 0) return 0;
  // Mail goes to the address each licence was issued to, never to the one typed in the form.
  const byAddress = new Map<string, Licence[]>();
  for (const licence of recoverable) {
    byAddress.set(licence.email, [...(byAddress.get(licence.email) ?? []), licence]);
  }
  await deps.db.transaction(async (tx) => {
    const outbox = createOutboxRepository(tx);
    for (const [address, licences] of byAddress) {
      const email = lostKeyEmail({
        email: address,
        publicBaseUrl: deps.publicBaseUrl,
        licences: licences.map((licence) => ({
          type: licence.type,
          edition: licence.edition,
          keyHint: licence.keyHint,
          expiresAt: licence.expiresAt,
          replaceUrl: `${deps.publicBaseUrl}${REPLACE_KEY_PAGE}?token=${createKeyReplacementToken(deps.secretKey, licence, now)}`,
        })),
      });
      await outbox.enqueue({ ...email, kind: 'lost-licence-key', to: address }, now);
    }
  });
  return byAddress.size;
}
