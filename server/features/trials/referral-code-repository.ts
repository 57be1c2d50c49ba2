import { asc, eq } from 'drizzle-orm';
import type { Executor } from '#server/platform/db/database.ts';
import { referralCodes } from '#server/platform/db/schema.ts';

export type ReferralCode = typeof referralCodes.$inferSelect;

/** Codes are case-insensitive: stored and looked up upper case, without surrounding spaces. */
export function canonicalReferralCode(code: string): string {
  return code.trim().toUpperCase();
}

export function createReferralCodeRepository(db: Executor) {
  return {
    async find(code: string): Promise<ReferralCode | undefined> {
      const [row] = await db
        .select()
        .from(referralCodes)
        .where(eq(referralCodes.code, canonicalReferralCode(code)));
      return row;
    },

    /** Codes in alphabetical order; disabled ones only when asked (operator list). */
    list(options: { includeDisabled: boolean }): Promise<ReferralCode[]> {
      const query = db.select().from(referralCodes);
      return (
        options.includeDisabled ? query : query.where(eq(referralCodes.disabled, false))
      ).orderBy(asc(referralCodes.code));
    },

    /** Creates a code or updates its flag and note (for operators and tests). */
    async save(input: {
      code: string;
      disabled?: boolean;
      note?: string | null;
    }): Promise<ReferralCode> {
      const values = {
        code: canonicalReferralCode(input.code),
        disabled: input.disabled ?? false,
        note: input.note ?? null,
      };
      const [row] = await db
        .insert(referralCodes)
        .values(values)
        .onConflictDoUpdate({
          target: referralCodes.code,
          set: { disabled: values.disabled, note: values.note },
        })
        .returning();
      if (!row) throw new Error('referral code upsert returned no row');
      return row;
    },
  };
}
