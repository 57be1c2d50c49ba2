import { z } from 'zod';

/**
 * How `npm run admin -- backup` asks a server running on the embedded database for a backup,
 * through its admin socket (decisions 130 and 189): one JSON line each way, then the server closes.
 */
export const BACKUP_REQUEST_MAX_BYTES = 4096;

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
