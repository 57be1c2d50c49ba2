import type { Database } from '#server/db/client.ts';
import { hashLicenceKey, parseLicenceKey } from '#server/licences/licence-key.ts';
import { createLicenceRepository, type Licence } from '#server/licences/licence-repository.ts';
import { normalizeEmailAddress } from '#server/licences/normalize-email-address.ts';
import { loadOrCreateSecret } from '#server/secrets.ts';
import { AdminError, type AdminContext } from '../command.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(text: string): boolean {
  return UUID.test(text);
}

/** The instance secret, as the server resolves it (keys and tokens are hashed with it). */
export function secretKeyOf(context: AdminContext, db: Database): Promise<string> {
  return loadOrCreateSecret(db, 'secret_key', context.env.SECRET_KEY);
}

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

/** Prints rows as aligned columns under a header. */
export function printTable(context: AdminContext, header: string[], rows: string[][]): void {
  const widths = header.map((title, i) =>
    Math.max(title.length, ...rows.map((row) => (row[i] ?? '').length)),
  );
  for (const row of [header, ...rows]) {
    context.io.out(
      row
        .map((cell, i) => cell.padEnd(widths[i] ?? 0))
        .join('  ')
        .trimEnd(),
    );
  }
}

export function formatTime(date: Date | null): string {
  return date ? `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC` : '–';
}

/** A positive whole number from an option, or a usage error naming the option. */
export function positiveInteger(value: string | boolean | undefined, option: string): number {
  const number = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isSafeInteger(number) || number < 1) {
    throw new AdminError(`--${option} must be a whole number of at least 1.`, 2);
  }
  return number;
}
