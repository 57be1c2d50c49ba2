import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SERVER_ENTRY, SERVER_NODE_FLAGS } from '#server/platform/node-flags.ts';
import { openDatabase } from '#server/platform/db/client.ts';
import { rateLimitCounters } from '#server/platform/db/schema.ts';
import { siteConfig } from '#shared/site-config.ts';
import { seedEmbeddedDatabase } from '#tests/support/databases.ts';
import { freePort } from '#tests/support/free-port.ts';
import { expect, test } from './support/test.ts';

/**
 * The production server as operators run it (`npm run serve`'s build and flags): the exact limits'
 * hits counted in memory reach the database when it stops on SIGTERM (decision 085); validation's
 * approximate limits never reach it (decision 238).
 */
test('a graceful shutdown writes the rate-limit counts still in memory', async ({ request }) => {
  test.setTimeout(60_000);
  const dataDir = await mkdtemp(path.join(tmpdir(), 'orgsmith-shutdown-'));
  await seedEmbeddedDatabase(dataDir);
  try {
    const port = await freePort();
    const { SMTP_URL, DATABASE_URL, ...environment } = process.env;
    void SMTP_URL;
    void DATABASE_URL;
    const server = spawn(process.execPath, [...SERVER_NODE_FLAGS, SERVER_ENTRY], {
      env: {
        ...environment,
        PORT: String(port),
        CONSOLE_PORT: String(await freePort()),
        DATA_DIR: dataDir,
        LOG_LEVEL: 'info',
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const exited = new Promise<number | null>((resolve) => server.on('exit', resolve));
    await new Promise<void>((resolve, reject) => {
      let output = '';
      server.stdout.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes('"msg":"listening')) resolve();
      });
      server.on('exit', () => reject(new Error(`the server stopped early:\n${output}`)));
    });

    const url = `http://127.0.0.1:${port}/account/v1/licenses/validate`;
    const data = {
      licenseKey: 'ORGS-0000-0000-0000-0000-0000-0000-0000',
      productId: siteConfig.productId,
    };
    for (let n = 1; n <= 7; n++) {
      const res = await request.post(url, { data });
      expect(res.status()).toBe(200);
      expect(res.headers()['x-ratelimit-remaining']).toBe(String(600 - n));
    }
    const contactUrl = `http://127.0.0.1:${port}/api/submitContactForm`;
    for (let n = 1; n <= 3; n++) {
      const res = await request.post(contactUrl, {
        data: { name: 'Rita', emailAddress: 'rita@example.com', message: 'Hi' },
        headers: { Cookie: 'XSRF-TOKEN=shutdown', 'X-XSRF-TOKEN': 'shutdown' },
      });
      expect(res.status()).toBe(204);
    }
    server.kill('SIGTERM');
    expect(await exited).toBe(0);

    const database = await openDatabase({ dataDir });
    try {
      const rows = await database.db.select().from(rateLimitCounters);
      // The contact form's, per client address and per mailbox: every request counted, whatever
      // the flush had written; the validations were counted in memory only.
      expect(rows.map((row) => row.hits)).toEqual([3, 3]);
    } finally {
      await database.close();
    }
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
});
