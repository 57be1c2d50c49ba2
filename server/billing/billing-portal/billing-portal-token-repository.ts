import { and, eq, lt } from 'drizzle-orm';
import type { Executor } from '#server/platform/db/database.ts';
import { billingPortalTokenUses } from '#server/platform/db/schema.ts';

/** Which billing-portal links were used: each opens the portal once (decision 092). */
export function createBillingPortalTokenRepository(db: Executor) {
  return {
    /** Forgets uses of tokens that have expired anyway. */
    async deleteExpired(now: Date): Promise<void> {
      await db.delete(billingPortalTokenUses).where(lt(billingPortalTokenUses.expiresAt, now));
    },
    /** Whether a token was used (the landing page asks without using it). */
    async isUsed(tokenId: string): Promise<boolean> {
      const rows = await db
        .select({ tokenId: billingPortalTokenUses.tokenId })
        .from(billingPortalTokenUses)
        .where(eq(billingPortalTokenUses.tokenId, tokenId));
      return rows.length > 0;
    },
    /** Records the use of a token; false when it was used before. */
    async recordUse(tokenId: string, usedAt: Date, expiresAt: Date): Promise<boolean> {
      const used = await db
        .insert(billingPortalTokenUses)
        .values({ tokenId, usedAt, expiresAt })
        .onConflictDoNothing()
        .returning({ tokenId: billingPortalTokenUses.tokenId });
      return used.length === 1;
    },
    /** Gives back the use recorded at `usedAt` (the portal could not be opened). */
    async forgetUse(tokenId: string, usedAt: Date): Promise<void> {
      await db
        .delete(billingPortalTokenUses)
        .where(
          and(
            eq(billingPortalTokenUses.tokenId, tokenId),
            eq(billingPortalTokenUses.usedAt, usedAt),
          ),
        );
    },
  };
}
