import { z } from 'zod';

/**
 * The parts of a PostgreSQL error (node-postgres and PGlite alike) that name the schema, never
 * the data: `message` and `detail` can quote values ("Key (email)=(…)", "Failing row contains
 * (…)", 'invalid input syntax for type uuid: "…"'), so they are read only through the patterns below.
 */
const databaseError = z.object({
  // A SQLSTATE always has a digit, so a Node error code such as EPERM is not taken for one.
  code: z.string().regex(/^(?=.*\d)[0-9A-Z]{5}$/),
  message: z.string(),
  table: z.string().optional(),
  column: z.string().optional(),
  constraint: z.string().optional(),
});

/** Type names PostgreSQL puts after a quoted value: safe to show, the value is not. */
const typeInMessage = [
  /^invalid input syntax for type ([a-z][a-z0-9 _]*):/,
  /is out of range for type ([a-z][a-z0-9 _]*)$/,
];

/** Drizzle wraps a driver error in one whose message lists the query's parameters: look inside. */
function findDatabaseError(error: unknown): z.infer<typeof databaseError> | undefined {
  for (let current = error, depth = 0; current && depth < 5; depth++) {
    const parsed = databaseError.safeParse(current);
    if (parsed.success) return parsed.data;
    current = current instanceof Error ? current.cause : undefined;
  }
  return undefined;
}

function what(error: z.infer<typeof databaseError>): string {
  const constraint = error.constraint ?? 'unnamed';
  switch (error.code) {
    case '23505':
      return `a value that must be unique appears twice (constraint ${constraint})`;
    case '23502':
      return `column ${error.column ?? '(unnamed)'} is empty but must have a value`;
    case '23503':
      return `a row refers to a row that is not there (constraint ${constraint})`;
    case '23514':
      return `a value breaks the check constraint ${constraint}`;
    case '23P01':
      return `rows overlap (exclusion constraint ${constraint})`;
  }
  if (error.code.startsWith('22')) {
    const type = typeInMessage.map((pattern) => pattern.exec(error.message)?.[1]).find(Boolean);
    const column = error.column ? ` in column ${error.column}` : '';
    return `a value${column} is not ${type ? `a valid ${type}` : 'what its column holds'} (SQLSTATE ${error.code})`;
  }
  return `the database refused it (SQLSTATE ${error.code})`;
}

/**
 * What went wrong in words that name tables, columns and constraints but never a value, or
 * `undefined` when `error` is no database error. Backups hold every customer address and the
 * service's keys, so nothing of a row may reach a terminal or a log.
 */
export function describeDatabaseError(
  error: unknown,
): { table: string | undefined; text: string } | undefined {
  const found = findDatabaseError(error);
  return found && { table: found.table, text: what(found) };
}
