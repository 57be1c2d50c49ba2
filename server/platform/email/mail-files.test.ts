import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listMailFiles, mailFilesOf, recipientsOfHeaders } from './mail-files.ts';

describe('the recipients of an .eml file', () => {
  it('are the normalized addresses of To, Cc, Bcc and Reply-To, folded lines included', () => {
    const headers = [
      'From: Orgsmith <hello@orgsmith.io>',
      'To: "Doe, Jane" <Jane.Doe+Trial@GoogleMail.com>,',
      ' other@Example.com',
      'Reply-To: sales+x@example.org',
      'Subject: for jane@not-a-recipient.example',
      'Message-ID: <abc@orgsmith.io>',
    ].join('\r\n');
    expect(recipientsOfHeaders(headers).sort()).toEqual([
      'janedoe@gmail.com',
      'other@example.com',
      'sales@example.org',
    ]);
  });
});

describe('the files of one person', () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'orgsmith-mail-files-'));
  });
  afterAll(() => rm(dataDir, { recursive: true, force: true }));

  it('are found by a recipient header under any spelling or by an outbox message id', async () => {
    expect(await listMailFiles(dataDir)).toEqual([]);
    const mail = path.join(dataDir, 'mail');
    await mkdir(mail);
    const write = (name: string, to: string) =>
      writeFile(path.join(mail, name), `To: ${to}\r\nSubject: Hi\r\n\r\nTo: janedoe@gmail.com\r\n`);
    await write('2026-01-15T10-00-00-000Z-trial-licence-m1.eml', 'J.A.N.E.doe+t@gmail.com');
    await write('2026-01-15T10-00-01-000Z-quote-m2.eml', 'someone@example.com');
    await write('2026-01-15T10-00-02-000Z-contact-message-m3.eml', 'undisclosed-recipients:;');
    const found = await mailFilesOf(dataDir, {
      normalized: 'janedoe@gmail.com',
      messageIds: ['m3'],
    });
    expect(found.map((file) => file.name)).toEqual([
      '2026-01-15T10-00-00-000Z-trial-licence-m1.eml',
      '2026-01-15T10-00-02-000Z-contact-message-m3.eml',
    ]);
    expect(found[0]?.createdAt.toISOString()).toBe('2026-01-15T10:00:00.000Z');
  });
});
