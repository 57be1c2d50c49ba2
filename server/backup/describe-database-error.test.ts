import { describe, expect, it } from 'vitest';
import { describeDatabaseError } from './describe-database-error.ts';

/** Shaped as node-postgres and PGlite raise them, wrapped as Drizzle wraps them. */
function failedQuery(fields: Record<string, string>): Error {
  const cause = Object.assign(new Error(fields.message), fields);
  return new Error('Failed query: insert …\nparams: [{"email":"secret@example.com"}]', { cause });
}

describe('describeDatabaseError', () => {
  it('names the constraint of a duplicate, never the key', () => {
    const error = failedQuery({
      code: '23505',
      message: 'duplicate key value violates unique constraint "licences_key_hash_key"',
      detail: 'Key (key_hash)=(9f86d081884c7d659a2feaa0c55ad015) already exists.',
      table: 'licences',
      constraint: 'licences_key_hash_key',
    });
    expect(describeDatabaseError(error)).toEqual({
      table: 'licences',
      text: 'a value that must be unique appears twice (constraint licences_key_hash_key)',
    });
  });

  it('names the column of a missing value and the type of a malformed one, never the value', () => {
    expect(
      describeDatabaseError(
        failedQuery({
          code: '23502',
          message:
            'null value in column "email" of relation "contact_messages" violates not-null constraint',
          detail: 'Failing row contains (1, null, Zoë, secret@example.com).',
          table: 'contact_messages',
          column: 'email',
        }),
      )?.text,
    ).toBe('column email is empty but must have a value');
    const malformed = describeDatabaseError(
      failedQuery({
        code: '22P02',
        message: 'invalid input syntax for type uuid: "secret@example.com"',
      }),
    );
    expect(malformed?.text).toBe('a value is not a valid uuid (SQLSTATE 22P02)');
    const outOfRange = describeDatabaseError(
      failedQuery({
        code: '22003',
        message: 'value "99999999999 for type secret" is out of range for type integer',
      }),
    );
    expect(outOfRange?.text).toBe('a value is not a valid integer (SQLSTATE 22003)');
    const quotedAtTheEnd = describeDatabaseError(
      failedQuery({ code: '22007', message: 'invalid input syntax: "secret for type x"' }),
    );
    expect(quotedAtTheEnd?.text).toBe('a value is not what its column holds (SQLSTATE 22007)');
  });

  it('falls back to the SQLSTATE, and leaves errors that are not the database alone', () => {
    expect(
      describeDatabaseError(failedQuery({ code: '42P01', message: 'relation "x" does not exist' }))
        ?.text,
    ).toBe('the database refused it (SQLSTATE 42P01)');
    const permission = Object.assign(new Error('EPERM: operation not permitted'), {
      code: 'EPERM',
    });
    expect(describeDatabaseError(permission)).toBeUndefined();
    expect(describeDatabaseError('text')).toBeUndefined();
  });
});
