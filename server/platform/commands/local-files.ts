import { readFile, stat, writeFile } from 'node:fs/promises';
import type { AdminFiles, FileReading } from './command.ts';

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** The operator's files on this machine, as this process's user. */
export const localFiles: AdminFiles = {
  async read(file, maxBytes): Promise<FileReading> {
    try {
      const info = await stat(file);
      if (!info.isFile()) return { ok: false, reason: 'not-a-file' };
      if (info.size > maxBytes) return { ok: false, reason: 'too-large', size: info.size };
      const bytes = await readFile(file);
      // It may have grown between the stat and the read.
      if (bytes.length > maxBytes) return { ok: false, reason: 'too-large', size: bytes.length };
      return { ok: true, bytes };
    } catch (error) {
      return { ok: false, reason: 'unreadable', message: messageOf(error) };
    }
  },
  async write(file, bytes) {
    await writeFile(file, bytes);
  },
};
