import { describe, expect, it } from 'vitest';
import { isDatabaseUnavailable } from './database-unavailable.ts';

const withCode = (code: string) => Object.assign(new Error('x'), { code });

describe('isDatabaseUnavailable', () => {
  it('recognises refused and dropped connections and a restarting server, also when wrapped', () => {
    expect(isDatabaseUnavailable(withCode('ECONNREFUSED'))).toBe(true);
    expect(isDatabaseUnavailable(withCode('57P01'))).toBe(true); // admin_shutdown
    expect(isDatabaseUnavailable(withCode('57P03'))).toBe(true); // cannot_connect_now
    expect(isDatabaseUnavailable(withCode('08006'))).toBe(true);
    expect(isDatabaseUnavailable(withCode('53300'))).toBe(true); // too_many_connections
    expect(isDatabaseUnavailable(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(isDatabaseUnavailable(new Error('timeout exceeded when trying to connect'))).toBe(true);
    const wrapped = new Error('Failed query: select 1', { cause: withCode('ECONNREFUSED') });
    expect(isDatabaseUnavailable(wrapped)).toBe(true);
  });

  it('leaves query faults and everything else alone', () => {
    expect(isDatabaseUnavailable(withCode('23505'))).toBe(false); // unique_violation
    expect(isDatabaseUnavailable(withCode('42P01'))).toBe(false); // undefined_table
    expect(isDatabaseUnavailable(withCode('53100'))).toBe(false); // disk_full: not passing
    expect(isDatabaseUnavailable(new Error('boom'))).toBe(false);
    expect(isDatabaseUnavailable(undefined)).toBe(false);
    expect(isDatabaseUnavailable('ECONNREFUSED')).toBe(false);
  });
});
