import { randomUUID } from 'node:crypto';
import { desc, gte } from 'drizzle-orm';
import type { Executor } from '../db/client.ts';
import { contactMessages } from '../db/schema.ts';

export type StoredContactMessage = typeof contactMessages.$inferSelect;

export function createContactMessageRepository(db: Executor) {
  return {
    async insert(
      message: Omit<typeof contactMessages.$inferInsert, 'id'>,
      tx: Executor = db,
    ): Promise<StoredContactMessage> {
      const [row] = await tx
        .insert(contactMessages)
        .values({ id: randomUUID(), ...message })
        .returning();
      if (!row) throw new Error('contact message insert returned no row');
      return row;
    },

    /** The latest messages, newest first (operator list). */
    listRecent(
      options: { limit: number; since?: Date | undefined },
      tx: Executor = db,
    ): Promise<StoredContactMessage[]> {
      const query = tx.select().from(contactMessages);
      return (options.since ? query.where(gte(contactMessages.createdAt, options.since)) : query)
        .orderBy(desc(contactMessages.createdAt))
        .limit(options.limit);
    },
  };
}
