import path from 'node:path';
import { z } from 'zod';

/**
 * The local socket through which `npm run admin -- backup` asks a server running on the embedded
 * database for a backup (decision 130): one JSON line each way, then the server closes.
 */
export function backupSocketPath(dataDir: string): string {
  return path.resolve(dataDir, 'run', 'backup.sock');
}

/** A request is one short line; anything longer is refused before it is parsed. */
export const BACKUP_REQUEST_MAX_BYTES = 4096;
/** The whole request must arrive this soon after connecting. */
export const BACKUP_REQUEST_TIMEOUT_MS = 5_000;

export const backupRequestSchema = z.strictObject({
  command: z.literal('backup'),
  file: z
    .string()
    .min(1)
    .max(BACKUP_REQUEST_MAX_BYTES)
    .refine((file) => !file.includes('\0'), 'must not contain NUL'),
});
export type BackupRequest = z.infer<typeof backupRequestSchema>;

export const backupAnswerSchema = z.discriminatedUnion('ok', [
  z.strictObject({
    ok: z.literal(true),
    file: z.string(),
    tables: z.number(),
    rows: z.number(),
    bytes: z.number(),
    size: z.number(),
    ms: z.number(),
  }),
  z.strictObject({ ok: z.literal(false), error: z.string() }),
]);
export type BackupAnswer = z.infer<typeof backupAnswerSchema>;
