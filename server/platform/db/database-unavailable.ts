/**
 * Whether an error means the database cannot be reached right now (server restarting, connection
 * refused or dropped, no connection left, pool timed out), as opposed to a fault in a query. Such requests answer 503
 * with `Retry-After`, not 500 (decision 112). Drizzle wraps driver errors, so causes are followed.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let current = error, depth = 0; current && depth < 5; depth += 1) {
    if (typeof current !== 'object') return false;
    const code: unknown = Reflect.get(current, 'code');
    if (typeof code === 'string' && unavailableCode(code)) return true;
    const message: unknown = Reflect.get(current, 'message');
    if (typeof message === 'string' && unavailableMessage.test(message)) return true;
    current = Reflect.get(current, 'cause');
  }
  return false;
}

/**
 * Socket errors, and PostgreSQL's connection exceptions (08…), operator interventions (57P…) and
 * too_many_connections (53300: instances × (pool + 1) beyond `max_connections`, or a pooler full).
 */
function unavailableCode(code: string): boolean {
  return (
    ['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'ENOTFOUND', 'EHOSTUNREACH'].includes(
      code,
    ) ||
    code.startsWith('08') ||
    code.startsWith('57P') ||
    code === '53300'
  );
}

/** node-postgres reports these without a code. */
const unavailableMessage =
  /^(?:Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Cannot use a pool after calling end)/;
