import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { parseEnv } from '#server/env.ts';
import { createRuntime } from '#server/runtime.ts';
import { siteConfig } from '#shared/site-config.ts';
import { databaseTargets } from '../support/databases.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';

/**
 * Issue 25, smaller item 9: security.txt's `Expires` was recomputed on each request, always half
 * a year ahead, so it could never say the policy was stale. It is a fixed date now
 * (SECURITY_TXT_EXPIRES, default in the site config), checked at start: an invalid one refuses
 * to start, one past or within 30 days is warned about (decision 160).
 */

// The route reads no database: one suffices.
const [target] = databaseTargets;

async function expiresServedBy(t: TestApp): Promise<string | undefined> {
  const response = await t.app.request('/.well-known/security.txt');
  expect(response.status).toBe(200);
  return /^Expires: (.+)$/m.exec(await response.text())?.[1];
}

describe('security.txt Expires', () => {
  it('is the same fixed date whenever it is asked, by default the site config’s', async () => {
    if (!target) throw new Error('no database target');
    const t = await createTestApp(target, { now: new Date('2026-12-01T10:00:00Z') });
    try {
      const first = await expiresServedBy(t);
      t.setNow(new Date('2027-04-20T10:00:00Z'));
      expect(await expiresServedBy(t)).toBe(first);
      expect(first).toBe(new Date(siteConfig.securityTxtExpires).toISOString());
      // Past the date, it still says that date: the policy is stale, and readers can tell.
      t.setNow(new Date('2027-07-01T10:00:00Z'));
      expect(await expiresServedBy(t)).toBe(first);
    } finally {
      await t.close();
    }
  });

  it('follows SECURITY_TXT_EXPIRES', async () => {
    if (!target) throw new Error('no database target');
    const t = await createTestApp(target, { env: { SECURITY_TXT_EXPIRES: '2026-12-24' } });
    try {
      expect(await expiresServedBy(t)).toBe('2026-12-24T00:00:00.000Z');
    } finally {
      await t.close();
    }
  });

  it('refuses to start with an invalid date', () => {
    for (const value of ['soon', '2027-02-30', '31.05.2027']) {
      expect(() => parseEnv({ NODE_ENV: 'test', SECURITY_TXT_EXPIRES: value })).toThrow(
        /SECURITY_TXT_EXPIRES: must be a date/,
      );
    }
  });

  it('warns at start when the date is past or within 30 days', async () => {
    for (const [offsetDays, expected] of [
      [-3, /security\.txt has expired/],
      [10, /security\.txt expires in (10|11) days/],
    ] as const) {
      const dataDir = await mkdtemp(path.join(tmpdir(), 'orgsmith-security-txt-'));
      const lines: string[] = [];
      const logger = pino({ level: 'info' }, { write: (line: string) => lines.push(line) });
      const expires = new Date(Date.now() + offsetDays * 86_400_000).toISOString();
      const env = parseEnv({ NODE_ENV: 'test', DATA_DIR: dataDir, SECURITY_TXT_EXPIRES: expires });
      const runtime = await createRuntime(env, logger);
      try {
        const warnings = lines.filter((line) => line.includes('"level":40')).join('\n');
        expect(warnings).toMatch(expected);
      } finally {
        await runtime.deps.database.close();
        await rm(dataDir, { recursive: true, force: true });
      }
    }
  });
});
