import { open, readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { normalizeEmailAddress } from './normalize-email-address.ts';

/** The directory under `DATA_DIR` where the file transport writes each e-mail (file-transport.ts). */
export function mailDirectoryOf(dataDir: string): string {
  return path.resolve(dataDir, 'mail');
}

/** Enough of a file for its header block: attachments come after it. */
const HEADER_BYTES = 64 * 1024;
/** The headers that name whom an e-mail is for. */
const RECIPIENT_HEADERS = new Set(['to', 'cc', 'bcc', 'reply-to']);
const ADDRESS = /[^\s<>,;:"()[\]]+@[^\s<>,;:"()[\]]+/g;
/** `2026-01-15T10-00-00-000Z-kind-id.eml`: the e-mail's creation time, as the transport names it. */
const STAMP = /^(\d{4}-\d{2}-\d{2})T(\d{2})-(\d{2})-(\d{2})-(\d{3})Z-/;

/** One `.eml` file: its path, when its e-mail was made and the normalized addresses it is for. */
export interface MailFile {
  file: string;
  name: string;
  createdAt: Date;
  recipients: string[];
}

async function headerBlockOf(file: string): Promise<string> {
  const handle = await open(file, 'r');
  try {
    const buffer = Buffer.alloc(HEADER_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, HEADER_BYTES, 0);
    const text = buffer.subarray(0, bytesRead).toString('utf8');
    const end = text.search(/\r?\n\r?\n/);
    return end === -1 ? text : text.slice(0, end);
  } finally {
    await handle.close();
  }
}

/** The normalized addresses of the recipient headers (folded lines joined first, RFC 5322). */
export function recipientsOfHeaders(headers: string): string[] {
  const unfolded = headers.replace(/\r?\n[ \t]+/g, ' ');
  const found = new Set<string>();
  for (const line of unfolded.split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon < 1 || !RECIPIENT_HEADERS.has(line.slice(0, colon).trim().toLowerCase())) continue;
    for (const address of line.slice(colon + 1).match(ADDRESS) ?? []) {
      found.add(normalizeEmailAddress(address));
    }
  }
  return [...found];
}

async function createdAtOf(file: string, name: string): Promise<Date> {
  const stamp = STAMP.exec(name);
  if (stamp) {
    const [, day, hours, minutes, seconds, millis] = stamp;
    const date = new Date(`${day}T${hours}:${minutes}:${seconds}.${millis}Z`);
    if (!Number.isNaN(date.getTime())) return date;
  }
  return (await stat(file)).mtime;
}

/** Every `.eml` file in the mail directory (none when it does not exist). */
export async function listMailFiles(dataDir: string): Promise<MailFile[]> {
  const dir = mailDirectoryOf(dataDir);
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (error) {
    if (error instanceof Error && 'code' in error && error.code === 'ENOENT') return [];
    throw error;
  }
  const files: MailFile[] = [];
  for (const name of names.filter((entry) => entry.endsWith('.eml')).sort()) {
    const file = path.join(dir, name);
    files.push({
      file,
      name,
      createdAt: await createdAtOf(file, name),
      recipients: recipientsOfHeaders(await headerBlockOf(file)),
    });
  }
  return files;
}

/**
 * The files of e-mails to or for a person: a recipient header of theirs under any spelling, or
 * the message id of one of their outbox rows in the name (the transport names files by it).
 */
export async function mailFilesOf(
  dataDir: string,
  person: { normalized: string; messageIds: readonly string[] },
): Promise<MailFile[]> {
  return (await listMailFiles(dataDir)).filter(
    (mail) =>
      mail.recipients.includes(person.normalized) ||
      person.messageIds.some((id) => mail.name.endsWith(`-${id}.eml`)),
  );
}

/** Deletes the files; returns how many were there to delete. */
export async function deleteMailFiles(files: readonly MailFile[]): Promise<number> {
  let deleted = 0;
  for (const mail of files) {
    try {
      await rm(mail.file);
      deleted += 1;
    } catch (error) {
      if (!(error instanceof Error && 'code' in error && error.code === 'ENOENT')) throw error;
    }
  }
  return deleted;
}
