import { randomUUID } from 'node:crypto';
import { desc, gte } from 'drizzle-orm';
import type { Executor } from '#server/platform/db/database.ts';
import { contactMessages } from '#server/platform/db/schema.ts';

export type StoredContactMessage = typeof contactMessages.$inferSelect;

export function createContactMessageRepository(db: Executor) {
  return {
    async insert(
      message: Omit<typeof contactMessages.$inferInsert, 'id'>,
    ): Promise<StoredContactMessage> {
      const [row] = await db
        .insert(contactMessages)
        .values({ id: randomUUID(), ...message })
        .returning();
      if (!row) throw new Error('contact message insert returned no row');
      return row;
    },

    /** The latest messages, newest first (operator list). */
    listRecent(options: {
      limit: number;
      since?: Date | undefined;
    }): Promise<StoredContactMessage[]> {
      const query = db.select().from(contactMessages);
      return (options.since ? query.where(gte(contactMessages.createdAt, options.since)) : query)
        .orderBy(desc(contactMessages.createdAt))
        .limit(options.limit);
    },
  };
}
