import { inArray, sql } from 'drizzle-orm';
import { openDatabase } from '#server/platform/db/client.ts';
import { contactMessages, licences } from '#server/platform/db/schema.ts';
import type { Submission } from './load.ts';

/**
 * Which acknowledged submissions are stored: contact messages by address, trial licences by
 * address. Opens the database as an operator's tool would (the instance must be stopped when it
 * is the embedded one).
 */
export async function missingFromDatabase(
  where: { databaseUrl: string } | { dataDir: string },
  acked: readonly Submission[],
): Promise<Submission[]> {
  const handle = await openDatabase(
    'databaseUrl' in where ? { databaseUrl: where.databaseUrl } : { dataDir: where.dataDir },
  );
  try {
    const contactEmails = acked.filter((s) => s.kind === 'contact').map((s) => s.email);
    const trialEmails = acked.filter((s) => s.kind === 'trial').map((s) => s.email);
    const storedContacts = new Set(
      contactEmails.length === 0
        ? []
        : (
            await handle.db
              .select({ email: contactMessages.email })
              .from(contactMessages)
              .where(inArray(contactMessages.email, contactEmails))
          ).map((row) => row.email),
    );
    const storedTrials = new Set(
      trialEmails.length === 0
        ? []
        : (
            await handle.db
              .select({ email: sql<string>`lower(${licences.email})` })
              .from(licences)
              .where(inArray(sql`lower(${licences.email})`, trialEmails))
          ).map((row) => row.email),
    );
    return acked.filter((s) =>
      s.kind === 'contact' ? !storedContacts.has(s.email) : !storedTrials.has(s.email),
    );
  } finally {
    await handle.close();
  }
}
