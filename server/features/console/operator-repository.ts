import { and, asc, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import type { Executor } from '#server/platform/db/database.ts';
import {
  operatorChallenges,
  operatorEnrolments,
  operatorPasskeys,
  operators,
  operatorSessions,
} from '#server/platform/db/schema.ts';
import type { Role } from '#shared/console/permissions.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export type OperatorRow = typeof operators.$inferSelect;
export type PasskeyRow = typeof operatorPasskeys.$inferSelect;
export type EnrolmentRow = typeof operatorEnrolments.$inferSelect;
export type ChallengePurpose = (typeof operatorChallenges.$inferSelect)['purpose'];

/** Operators, their passkeys and enrolment links (migration 0950). */
export function createOperatorRepository(db: Executor) {
  return {
    async byEmail(email: string): Promise<OperatorRow | undefined> {
      const [row] = await db
        .select()
        .from(operators)
        .where(eq(operators.emailNormalized, sql`normalize_email_address(${email})`));
      return row;
    },

    async byId(id: string): Promise<OperatorRow | undefined> {
      // A path parameter that is no UUID names nobody (the column would refuse it).
      if (!UUID.test(id)) return undefined;
      const [row] = await db.select().from(operators).where(eq(operators.id, id));
      return row;
    },

    /** Every operator, oldest first. */
    list(): Promise<OperatorRow[]> {
      return db.select().from(operators).orderBy(asc(operators.createdAt), asc(operators.email));
    },

    async insert(email: string, role: Role, now: Date): Promise<OperatorRow> {
      const [row] = await db
        .insert(operators)
        .values({ email, role, status: 'invited', createdAt: now, updatedAt: now })
        .returning();
      if (!row) throw new Error('inserting an operator returned no row');
      return row;
    },

    async update(
      id: string,
      change: Partial<Pick<OperatorRow, 'role' | 'status' | 'disabledAt'>>,
      now: Date,
    ): Promise<OperatorRow | undefined> {
      const [row] = await db
        .update(operators)
        .set({ ...change, updatedAt: now })
        .where(eq(operators.id, id))
        .returning();
      return row;
    },

    /** How many operators are owners that may sign in or enrol (the last one is kept). */
    async enabledOwners(): Promise<number> {
      const rows = await db
        .select({ id: operators.id })
        .from(operators)
        .where(and(eq(operators.role, 'owner'), sql`${operators.status} <> 'disabled'`));
      return rows.length;
    },

    async addEnrolment(tokenHash: string, operatorId: string, now: Date, expiresAt: Date) {
      await db
        .insert(operatorEnrolments)
        .values({ tokenHash, operatorId, createdAt: now, expiresAt });
    },

    async enrolment(tokenHash: string): Promise<EnrolmentRow | undefined> {
      const [row] = await db
        .select()
        .from(operatorEnrolments)
        .where(eq(operatorEnrolments.tokenHash, tokenHash));
      return row;
    },

    /** Uses the link once: false when it was used (or replaced) meanwhile. */
    async useEnrolment(tokenHash: string, now: Date): Promise<boolean> {
      const rows = await db
        .update(operatorEnrolments)
        .set({ usedAt: now })
        .where(and(eq(operatorEnrolments.tokenHash, tokenHash), isNull(operatorEnrolments.usedAt)))
        .returning({ tokenHash: operatorEnrolments.tokenHash });
      return rows.length === 1;
    },

    /** A newer invitation or a disabling ends every open link of the operator. */
    async closeEnrolments(operatorId: string, now: Date): Promise<void> {
      await db
        .update(operatorEnrolments)
        .set({ usedAt: now })
        .where(
          and(eq(operatorEnrolments.operatorId, operatorId), isNull(operatorEnrolments.usedAt)),
        );
    },

    async addPasskey(passkey: {
      credentialId: string;
      operatorId: string;
      publicKey: string;
      counter: number;
      transports: string;
      createdAt: Date;
    }): Promise<void> {
      await db.insert(operatorPasskeys).values(passkey);
    },

    async passkey(credentialId: string): Promise<PasskeyRow | undefined> {
      const [row] = await db
        .select()
        .from(operatorPasskeys)
        .where(eq(operatorPasskeys.credentialId, credentialId));
      return row;
    },

    passkeysOf(operatorId: string): Promise<PasskeyRow[]> {
      return db.select().from(operatorPasskeys).where(eq(operatorPasskeys.operatorId, operatorId));
    },

    async passkeyUsed(credentialId: string, counter: number, now: Date): Promise<void> {
      await db
        .update(operatorPasskeys)
        .set({ counter, lastUsedAt: now })
        .where(eq(operatorPasskeys.credentialId, credentialId));
    },
  };
}

export type SessionRow = typeof operatorSessions.$inferSelect;

/** Console sessions and the challenges of passkey ceremonies under way (migration 0950). */
export function createConsoleSessionRepository(db: Executor) {
  return {
    async create(tokenHash: string, operatorId: string, now: Date): Promise<void> {
      await db
        .insert(operatorSessions)
        .values({ tokenHash, operatorId, createdAt: now, lastSeenAt: now, verifiedAt: now });
    },

    /** A session not idle since `activeAfter`, with its operator. */
    async live(
      tokenHash: string,
      activeAfter: Date,
    ): Promise<{ session: SessionRow; operator: OperatorRow } | undefined> {
      const [row] = await db
        .select({ session: operatorSessions, operator: operators })
        .from(operatorSessions)
        .innerJoin(operators, eq(operators.id, operatorSessions.operatorId))
        .where(
          and(
            eq(operatorSessions.tokenHash, tokenHash),
            gt(operatorSessions.lastSeenAt, activeAfter),
          ),
        );
      return row;
    },

    async touch(tokenHash: string, now: Date): Promise<void> {
      await db
        .update(operatorSessions)
        .set({ lastSeenAt: now })
        .where(eq(operatorSessions.tokenHash, tokenHash));
    },

    async verified(tokenHash: string, now: Date): Promise<void> {
      await db
        .update(operatorSessions)
        .set({ lastSeenAt: now, verifiedAt: now })
        .where(eq(operatorSessions.tokenHash, tokenHash));
    },

    /** Ends one session; false when there was none. */
    async end(tokenHash: string): Promise<{ operatorId: string } | undefined> {
      const [row] = await db
        .delete(operatorSessions)
        .where(eq(operatorSessions.tokenHash, tokenHash))
        .returning({ operatorId: operatorSessions.operatorId });
      return row;
    },

    /** Ends every session of an operator; returns how many. */
    async endAllOf(operatorId: string): Promise<number> {
      const rows = await db
        .delete(operatorSessions)
        .where(eq(operatorSessions.operatorId, operatorId))
        .returning({ tokenHash: operatorSessions.tokenHash });
      return rows.length;
    },

    /** Deletes sessions idle since before `idleSince`, and challenges expired by `now`. */
    async sweep(idleSince: Date, now: Date): Promise<void> {
      await db.delete(operatorSessions).where(lt(operatorSessions.lastSeenAt, idleSince));
      await db.delete(operatorChallenges).where(lt(operatorChallenges.expiresAt, now));
    },

    async addChallenge(challenge: {
      id: string;
      challenge: string;
      purpose: ChallengePurpose;
      operatorId: string | null;
      expiresAt: Date;
    }): Promise<void> {
      await db.insert(operatorChallenges).values(challenge);
    },

    /** Takes a challenge once: deleted as it is read; undefined if unknown or expired. */
    async takeChallenge(
      id: string,
      purpose: ChallengePurpose,
      now: Date,
    ): Promise<{ challenge: string; operatorId: string | null } | undefined> {
      const [row] = await db
        .delete(operatorChallenges)
        .where(and(eq(operatorChallenges.id, id), eq(operatorChallenges.purpose, purpose)))
        .returning({
          challenge: operatorChallenges.challenge,
          operatorId: operatorChallenges.operatorId,
          expiresAt: operatorChallenges.expiresAt,
        });
      if (!row || row.expiresAt <= now) return undefined;
      return { challenge: row.challenge, operatorId: row.operatorId };
    },
  };
}
