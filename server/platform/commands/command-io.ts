import type { Database } from '#server/platform/db/database.ts';
import { loadOrCreateSecret } from '#server/platform/secrets.ts';
import { AdminError, type AdminContext } from './command.ts';
import { terminalField } from './terminal-text.ts';

/** What every operator command uses to read its arguments and print its answer. */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(text: string): boolean {
  return UUID.test(text);
}

/** The instance secret, as the server resolves it (keys and tokens are hashed with it). */
export function secretKeyOf(context: AdminContext, db: Database): Promise<string> {
  return loadOrCreateSecret(db, 'secret_key', context.env.SECRET_KEY);
}

/** Prints rows as aligned columns under a header; a cell's line breaks are escaped (decision 208). */
export function printTable(context: AdminContext, header: string[], rows: string[][]): void {
  const cells = rows.map((row) => row.map(terminalField));
  const widths = header.map((title, i) =>
    Math.max(title.length, ...cells.map((row) => (row[i] ?? '').length)),
  );
  for (const row of [header, ...cells]) {
    context.io.out(
      row
        .map((cell, i) => cell.padEnd(widths[i] ?? 0))
        .join('  ')
        .trimEnd(),
    );
  }
}

export function formatTime(date: Date | null): string {
  return date ? `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC` : '–';
}

/** A positive whole number from an option, or a usage error naming the option. */
export function positiveInteger(value: string | boolean | undefined, option: string): number {
  const number = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isSafeInteger(number) || number < 1) {
    throw new AdminError(`--${option} must be a whole number of at least 1.`, 2);
  }
  return number;
}

/** A `--since YYYY-MM-DD` option as the start of that day (UTC); `undefined` when not given. */
export function sinceDay(value: string | boolean | undefined): Date | undefined {
  if (value === undefined) return undefined;
  const text = typeof value === 'string' ? value : '';
  const since = /^\d{4}-\d{2}-\d{2}$/.test(text) ? new Date(`${text}T00:00:00Z`) : undefined;
  if (!since || Number.isNaN(since.getTime())) {
    throw new AdminError('--since must be a date like 2026-01-31.', 2);
  }
  return since;
}
