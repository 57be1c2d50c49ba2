import { readFile, stat } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { writePrivateFile } from '../data-dir/write-private-file.ts';
import type { AdminFiles, FileReading } from './command.ts';

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

const writeFailures: Record<string, string> = {
  ENOENT: 'its folder does not exist',
  EACCES: 'permission denied',
  EISDIR: 'it is a folder',
  ENOTDIR: 'a part of the path is not a folder',
  ENOSPC: 'the disk is full',
};

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
  // What a command writes for the operator holds customers' data (PDFs, exports): owner-only.
  async write(file, bytes) {
    try {
      await writePrivateFile(file, Readable.from([Buffer.from(bytes)]));
    } catch (error) {
      // Named after the file the operator gave, not the temporary file written first.
      const code = (error as NodeJS.ErrnoException).code;
      throw new Error(
        `Cannot write ${file}: ${code ? (writeFailures[code] ?? code) : messageOf(error)}`,
        { cause: error },
      );
    }
  },
};
