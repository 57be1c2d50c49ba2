import { sql } from 'drizzle-orm';

/** PostgreSQL's time limits for this service's connections (decision 237). 0 = no limit. */
export interface DatabaseTimeouts {
  /** `statement_timeout`: a statement running longer is cancelled. */
  statementTimeoutMs: number;
  /** `idle_in_transaction_session_timeout`: a transaction idle longer loses its connection. */
  idleInTransactionTimeoutMs: number;
}

/**
 * A request's statements take milliseconds; the slowest routine ones (the lifecycle sweep's
 * batches, a metrics gauge) under two seconds at a million licences. Thirty seconds stops a
 * runaway query long before it holds a pooled connection for good; a minute idle inside a
 * transaction is a client that went away mid-transaction.
 */
export const DEFAULT_DATABASE_TIMEOUTS: DatabaseTimeouts = {
  statementTimeoutMs: 30_000,
  idleInTransactionTimeoutMs: 60_000,
};

/**
 * The limits as the `options` startup parameter: every connection made straight to PostgreSQL
 * starts with them. PgBouncer refuses this parameter ("unsupported startup parameter: options"),
 * so a pool behind it gets them per transaction instead (`transactionTimeouts`).
 */
export function startupOptions(timeouts: DatabaseTimeouts): string {
  return [
    `-c statement_timeout=${timeouts.statementTimeoutMs}`,
    `-c idle_in_transaction_session_timeout=${timeouts.idleInTransactionTimeoutMs}`,
  ].join(' ');
}

/**
 * The limits for the rest of the current transaction only (`set_config(…, true)` is `SET LOCAL`):
 * what holds through PgBouncer in transaction mode, where a session-level SET would stay behind
 * on a server connection that other clients get next.
 */
export function transactionTimeouts(timeouts: DatabaseTimeouts) {
  return sql`select set_config('statement_timeout', ${String(timeouts.statementTimeoutMs)}, true),
    set_config('idle_in_transaction_session_timeout', ${String(timeouts.idleInTransactionTimeoutMs)}, true)`;
}

/**
 * No statement limit for the rest of this transaction: a backup's snapshot and a restore, whose
 * single statements (an index rebuilt over every row) grow with the data.
 */
export const unlimitedStatements = sql`select set_config('statement_timeout', '0', true)`;
