import path from 'node:path';
import { z } from 'zod';

/**
 * What travels over the admin socket (`adminSocketPath`, decision 189): newline-delimited JSON,
 * one request per connection. A first line `{"command":"backup",…}` is a backup request
 * (decision 130, backup-socket-protocol.ts); `{"argv":…}` runs an admin command.
 */

/** The first line (the request) is short; anything longer is refused before it is parsed. */
export const ADMIN_REQUEST_MAX_BYTES = 4096;
/** The whole request must arrive this soon after connecting. */
export const ADMIN_REQUEST_TIMEOUT_MS = 5_000;
/** The CLI answers a file request within this, or the command fails. */
export const ADMIN_REPLY_TIMEOUT_MS = 30_000;
/** Above this a command's file is not carried over the socket (the largest it reads is 5 MB). */
export const ADMIN_FILE_MAX_BYTES = 16 * 1024 * 1024;
/** A reply line of the CLI carries at most one file, base64 (4 bytes per 3), and a little JSON. */
export const replyMaxBytes = (fileBytes: number) => Math.ceil(fileBytes / 3) * 4 + 1024;

const absolutePath = z
  .string()
  .min(1)
  .max(ADMIN_REQUEST_MAX_BYTES)
  .refine((file) => path.isAbsolute(file) && !file.includes('\0'), 'must be an absolute path');

/** `npm run admin -- quotes list` sends `{"argv":["quotes","list"],"cwd":"/home/ops"}`. */
export const adminRunRequestSchema = z.strictObject({
  argv: z
    .array(
      z
        .string()
        .max(1024)
        .refine((arg) => !arg.includes('\0')),
    )
    .min(1)
    .max(64),
  /** Where the operator ran the command: relative paths are theirs. */
  cwd: absolutePath,
  /** The operator's user name, for the audit log's `cli:` actor (decision 224). */
  user: z
    .string()
    .regex(/^[A-Za-z0-9._-]{1,64}$/)
    .optional(),
});
export type AdminRunRequest = z.infer<typeof adminRunRequestSchema>;

/** What the server sends while the command runs; `exit` is the last line. */
export const adminServerMessageSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('out'), line: z.string() }),
  z.strictObject({ type: z.literal('err'), line: z.string() }),
  z.strictObject({
    type: z.literal('read'),
    id: z.number().int().nonnegative(),
    path: absolutePath,
    maxBytes: z.number().int().nonnegative().max(ADMIN_FILE_MAX_BYTES),
  }),
  z.strictObject({
    type: z.literal('write'),
    id: z.number().int().nonnegative(),
    path: absolutePath,
    data: z.base64(),
  }),
  z.strictObject({ type: z.literal('exit'), code: z.number().int().min(0).max(255) }),
]);
export type AdminServerMessage = z.infer<typeof adminServerMessageSchema>;

/** The CLI's answers to the server's file requests, by id. */
export const adminClientReplySchema = z.discriminatedUnion('type', [
  z.strictObject({
    type: z.literal('read'),
    id: z.number().int().nonnegative(),
    reading: z.discriminatedUnion('reason', [
      z.strictObject({ reason: z.literal('ok'), data: z.base64() }),
      z.strictObject({ reason: z.literal('not-a-file') }),
      z.strictObject({ reason: z.literal('too-large'), size: z.number().int().nonnegative() }),
      z.strictObject({ reason: z.literal('unreadable'), message: z.string().max(2048) }),
    ]),
  }),
  z.strictObject({
    type: z.literal('written'),
    id: z.number().int().nonnegative(),
    error: z.string().max(2048).optional(),
  }),
]);
export type AdminClientReply = z.infer<typeof adminClientReplySchema>;
