import { randomBytes } from 'node:crypto';
import { open, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';

/** Read and write for the owner, nothing for anyone else: a backup holds the service's secrets. */
export const PRIVATE_FILE_MODE = 0o600;

/**
 * Writes everything `source` yields to `file`, atomically and readable by its owner only: into a
 * new temporary file beside it, created with mode 0600 whatever the umask, flushed to disk and
 * renamed over `file`. On failure the temporary file is removed and `file` is left as it was.
 */
export async function writePrivateFile(file: string, source: Readable): Promise<void> {
  const temporary = `${file}.${randomBytes(6).toString('hex')}.partial`;
  // 'wx' creates a new file or fails: nothing planted at that name is ever written through.
  const handle = await open(temporary, 'wx', PRIVATE_FILE_MODE);
  let closed = false;
  try {
    // A umask can only clear bits of the mode given at creation; make it exactly 0600 before any byte.
    await handle.chmod(PRIVATE_FILE_MODE);
    for await (const chunk of source) {
      const bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
      for (let at = 0; at < bytes.length;) at += (await handle.write(bytes, at)).bytesWritten;
    }
    await handle.sync();
    closed = true;
    await handle.close();
    await rename(temporary, file);
  } catch (error) {
    source.destroy();
    if (!closed) await handle.close().catch(() => undefined);
    await rm(temporary, { force: true });
    throw error;
  }
  await syncDirectory(path.dirname(file));
}

/** Makes the rename itself durable: a crash right after it keeps the new file, not the old one. */
async function syncDirectory(dir: string): Promise<void> {
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
