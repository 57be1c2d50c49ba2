import type { Database } from '#server/platform/db/database.ts';
import { AdminError, type AdminContext } from '#server/platform/commands/command.ts';
import { isUuid, secretKeyOf } from '#server/platform/commands/command-io.ts';
import { hashLicenceKey, parseLicenceKey } from './licence-key.ts';
import { createLicenceRepository, type Licence } from './licence-repository.ts';
import { normalizeEmailAddress } from '#server/platform/email/normalize-email-address.ts';

/**
 * Licences named by what an operator has at hand: a licence id, a licence key (any spelling the
 * customer typed) or an e-mail address (every licence of that mailbox).
 */
export async function findLicences(
  context: AdminContext,
  reference: string,
): Promise<{ db: Database; licences: Licence[] }> {
  const db = await context.database();
  const repository = createLicenceRepository(db);
  const text = reference.trim();
  if (isUuid(text)) {
    const licence = await repository.findById(text.toLowerCase());
    return { db, licences: licence ? [licence] : [] };
  }
  if (text.includes('@')) {
    return { db, licences: await repository.findByNormalizedEmail(normalizeEmailAddress(text)) };
  }
  const parsed = parseLicenceKey(text);
  if (!parsed.ok) {
    throw new AdminError(
      parsed.reason === 'ChecksumMismatch'
        ? `"${text}" looks like a licence key but has a typo (its check characters do not match).`
        : `"${text}" is neither a licence id, a licence key nor an e-mail address.`,
      2,
    );
  }
  const keyHash = hashLicenceKey(await secretKeyOf(context, db), parsed.key);
  const licence = await repository.findByKeyHash(keyHash);
  return { db, licences: licence ? [licence] : [] };
}

/** Exactly one licence, or a clear error naming the candidates. */
export async function findOneLicence(
  context: AdminContext,
  reference: string,
): Promise<{ db: Database; licence: Licence }> {
  const { db, licences } = await findLicences(context, reference);
  const [licence] = licences;
  if (!licence) throw new AdminError(`No licence matches "${reference}".`);
  if (licences.length > 1) {
    throw new AdminError(
      [
        `${licences.length} licences match "${reference}"; name one by its id:`,
        ...licences.map((l) => `  ${l.id}  ${l.type} ${l.edition}, key …${l.keyHint}`),
      ].join('\n'),
    );
  }
  return { db, licence };
}
