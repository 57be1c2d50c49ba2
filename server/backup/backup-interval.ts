const UNIT_MS = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;
const DURATION = /^(\d{1,6})([smhd])$/;

/** The schedule's default when BACKUP_DIR is set and BACKUP_EVERY is not. */
export const DEFAULT_BACKUP_EVERY_MS = UNIT_MS.d;
/** A week of daily backups, the advice of docs/operations.md (Backups). */
export const DEFAULT_BACKUP_KEEP = 7;
const LONGEST_MS = 366 * UNIT_MS.d;

/**
 * `BACKUP_EVERY` in milliseconds: a whole number and one unit, `30s`, `30m`, `24h` or `7d`
 * (seconds mostly for tests); undefined for anything else or outside 1 s to a year.
 */
export function parseBackupInterval(text: string): number | undefined {
  const match = DURATION.exec(text.trim());
  if (!match) return undefined;
  const [, amount, unit] = match;
  if (amount === undefined || (unit !== 's' && unit !== 'm' && unit !== 'h' && unit !== 'd')) {
    return undefined;
  }
  const ms = Number(amount) * UNIT_MS[unit];
  return ms >= UNIT_MS.s && ms <= LONGEST_MS ? ms : undefined;
}

/** `86400000` → `24h`: the interval as an operator wrote it, for logs. */
export function formatBackupInterval(ms: number): string {
  for (const unit of ['d', 'h', 'm'] as const) {
    if (ms % UNIT_MS[unit] === 0) return `${ms / UNIT_MS[unit]}${unit}`;
  }
  return `${Math.round(ms / 1000)}s`;
}
