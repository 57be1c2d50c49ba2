import { sql } from 'drizzle-orm';
import { currentAuditContext, type AuditContext } from '../audit/audit-context.ts';
import type { Database } from './database.ts';

/** The settings `audit_append` reads, for the transaction `tx` (transaction-local). */
export function auditSettings(context: AuditContext) {
  return sql`select set_config('orgsmith.actor', ${context.actor}, true),
    set_config('orgsmith.reason', ${context.reason ?? ''}, true),
    set_config('orgsmith.request_id', ${context.requestId ?? ''}, true)`;
}

const attributedDatabases = new WeakSet<object>();

/**
 * Makes every transaction of `db` carry the current audit context into the database (one
 * statement at its start), so the triggers of migration 0940 attribute each change to the actor
 * whatever code path made it. A change made outside a transaction, or outside any context, is
 * written `system:unattributed`. Idempotent; returns `db`.
 */
export function attributed(db: Database): Database {
  if (attributedDatabases.has(db)) return db;
  attributedDatabases.add(db);
  const transaction = db.transaction.bind(db);
  const wrapped: Database['transaction'] = (work, config) =>
    transaction(async (tx) => {
      const context = currentAuditContext();
      if (context) await tx.execute(auditSettings(context));
      return work(tx);
    }, config);
  db.transaction = wrapped;
  return db;
}
