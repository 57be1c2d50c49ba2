import { describe, expect, it } from 'vitest';
import { formatBackupInterval, parseBackupInterval } from './backup-interval.ts';

describe('BACKUP_EVERY', () => {
  it('reads a whole number and one unit', () => {
    expect(parseBackupInterval('2s')).toBe(2000);
    expect(parseBackupInterval('30m')).toBe(30 * 60_000);
    expect(parseBackupInterval('24h')).toBe(86_400_000);
    expect(parseBackupInterval(' 7d ')).toBe(7 * 86_400_000);
  });

  it('refuses anything else, and intervals under a second or over a year', () => {
    for (const text of [
      '',
      '24',
      'h',
      '1.5h',
      '-1h',
      '1h30m',
      '24 h',
      '1w',
      '0s',
      '367d',
      '1e3s',
    ]) {
      expect(parseBackupInterval(text), text).toBeUndefined();
    }
    expect(parseBackupInterval('366d')).toBe(366 * 86_400_000);
  });

  it('prints an interval the way an operator writes it', () => {
    expect(formatBackupInterval(86_400_000)).toBe('1d');
    expect(formatBackupInterval(2 * 3_600_000)).toBe('2h');
    expect(formatBackupInterval(90_000)).toBe('90s');
  });
});
