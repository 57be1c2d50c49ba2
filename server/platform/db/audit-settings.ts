import { sql } from 'drizzle-orm';
import { currentAuditContext, type AuditContext } from '../audit/audit-context.ts';
import type { Database } from './database.ts';
import { transactionTimeouts, type DatabaseTimeouts } from './connection-settings.ts';

/** The settings `audit_append` reads, for the transaction `tx` (transaction-local). */
export function auditSettings(context: AuditContext) {
  return sql`select set_config('orgsmith.actor', ${context.actor}, true),
    set_config('orgsmith.reason', ${context.reason ?? ''}, true),
    set_config('orgsmith.request_id', ${context.requestId ?? ''}, true)`;
}

const attributedDatabases = new WeakSet<object>();

/**
 * The one statement a transaction starts with: the audit context's settings and, through a
 * connection pooler, the time limits (decision 237); `undefined` when there is nothing to set.
 */
function transactionSettings(context: AuditContext | undefined, timeouts?: DatabaseTimeouts) {
  if (!context) return timeouts ? transactionTimeouts(timeouts) : undefined;
  if (!timeouts) return auditSettings(context);
  return sql`${auditSettings(context)},
    set_config('statement_timeout', ${String(timeouts.statementTimeoutMs)}, true),
    set_config('idle_in_transaction_session_timeout', ${String(timeouts.idleInTransactionTimeoutMs)}, true)`;
}

/**
 * Makes every transaction of `db` carry the current audit context into the database (one
 * statement at its start), so the triggers of migration 0940 attribute each change to the actor
 * whatever code path made it. A change made outside a transaction, or outside any context, is
 * written `system:unattributed`. With `timeouts` (a pool behind PgBouncer in transaction mode,
 * where startup parameters cannot carry them) the same statement sets PostgreSQL's time limits
 * for the transaction. Idempotent; returns `db`.
 */
export function attributed(db: Database, options: { timeouts?: DatabaseTimeouts } = {}): Database {
  if (attributedDatabases.has(db)) return db;
  attributedDatabases.add(db);
  const transaction = db.transaction.bind(db);
  const wrapped: Database['transaction'] = (work, config) =>
    transaction(async (tx) => {
      const settings = transactionSettings(currentAuditContext(), options.timeouts);
      if (settings) await tx.execute(settings);
      return work(tx);
    }, config);
  db.transaction = wrapped;
  return db;
}
