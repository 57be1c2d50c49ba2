import { watch } from 'node:fs';
import { chmod, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { databaseFingerprint } from '#server/backup/backup-file.ts';
import { databaseTargets } from '#tests/support/databases.ts';
import { createLicence, runAdminOn } from '#tests/support/licensing.ts';
import { createTestApp, type TestApp } from '#tests/support/test-app.ts';
import { postJson, requestTrial } from '#tests/api/account-support.ts';

/**
 * Issue 17, item 5: a backup holds every customer address, SECRET_KEY and the licence signing
 * key. It is written owner-only (the temporary file too, whatever the umask), and a restore that
 * fails says where and why without printing anything the file holds.
 */
const modeOf = (file: string) => statSync(file).mode & 0o777;

async function fill(t: TestApp, count: number): Promise<void> {
  for (let n = 0; n < count; n++) {
    expect(
      (await requestTrial(t, { emailAddress: `trial${n}@example.com`, productId: 'orgsmith-cli' }))
        .status,
    ).toBe(204);
    await createLicence(t, { email: `paid${n}@example.com` });
  }
  const contact = await postJson(t, '/api/submitContactForm', {
    name: 'Zoë Secret-Name',
    emailAddress: 'visitor@example.com',
    message: 'Please call me back',
  });
  expect(contact.status).toBe(204);
}

describe('backup files are readable by their owner only', () => {
  let t: TestApp;
  let dir: string;
  beforeAll(async () => {
    const pglite = databaseTargets.find((target) => target.name === 'pglite');
    if (!pglite) throw new Error('PGlite target missing');
    t = await createTestApp(pglite);
    await fill(t, 40);
    dir = await mkdtemp(path.join(tmpdir(), 'orgsmith-backup-mode-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
    await t.close();
  });

  it('creates the temporary file and the backup with mode 0600, even with umask 000', async () => {
    const file = path.join(dir, 'open.backup.gz');
    const temporary: number[] = [];
    // Every file that shows up while the backup runs, stat'ed as soon as it is announced.
    const watcher = watch(dir, (_event, name) => {
      if (!name || name === path.basename(file)) return;
      try {
        temporary.push(modeOf(path.join(dir, name)));
      } catch {
        // Renamed already: its next event names the final file.
      }
    });
    const umask = process.umask(0o000);
    try {
      const result = await runAdminOn(t, 'backup', file);
      expect(result.err).toBe('');
      expect(result.code).toBe(0);
    } finally {
      process.umask(umask);
      watcher.close();
    }
    expect(temporary.length).toBeGreaterThan(0);
    expect(temporary.every((mode) => mode === 0o600)).toBe(true);
    expect(modeOf(file)).toBe(0o600);
  });

  it('replaces an older world-readable backup with an owner-only one', async () => {
    const file = path.join(dir, 'old.backup.gz');
    await writeFile(file, 'an older backup');
    await chmod(file, 0o644);
    expect((await runAdminOn(t, 'backup', file)).code).toBe(0);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
  });
});

const rowsLine = z.object({ rows: z.array(z.record(z.string(), z.unknown())) });
type Row = Record<string, unknown>;

/** Every value a backup holds that could identify or unlock something: addresses, hashes, keys. */
function secretsIn(lines: readonly string[]): string[] {
  const values = new Set<string>();
  for (const line of lines) {
    const parsed = rowsLine.safeParse(JSON.parse(line));
    if (!parsed.success) continue;
    for (const row of parsed.data.rows) {
      for (const value of Object.values(row)) {
        // Codes are not secrets: the audit log's target types and actions (`licence`,
        // `licence.created`, decision 224) name tables the error message names too.
        if (
          typeof value === 'string' &&
          value.length >= 6 &&
          !/^\d{4}-\d\d-\d\d/.test(value) &&
          !/^[a-z_]+(\.[a-z_]+)?$/.test(value)
        ) {
          values.add(value);
        }
      }
    }
  }
  return [...values];
}

describe.each(databaseTargets)('a failed restore on $name prints no row contents', (target) => {
  let t: TestApp;
  let dir: string;
  let lines: string[];
  beforeAll(async () => {
    t = await createTestApp(target);
    await fill(t, 3);
    dir = await mkdtemp(path.join(tmpdir(), 'orgsmith-backup-leak-'));
    const file = path.join(dir, 'good.backup.gz');
    expect((await runAdminOn(t, 'backup', file)).code).toBe(0);
    lines = gunzipSync(await readFile(file))
      .toString('utf8')
      .trimEnd()
      .split('\n');
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
    await t.close();
  });

  /** The index of the first rows line of `table`. */
  function rowsLineOf(table: string): number {
    const start = lines.findIndex((line) => line.startsWith(`{"table":"${table}"`));
    expect(start).toBeGreaterThan(0);
    return start + 1;
  }

  async function restoreTampered(
    name: string,
    table: string,
    tamper: (rows: Row[]) => Row[],
  ): Promise<{ err: string; line: number }> {
    const index = rowsLineOf(table);
    const rows = tamper(rowsLine.parse(JSON.parse(lines[index] ?? '')).rows);
    const changed = [...lines];
    changed[index] = JSON.stringify({ rows });
    const file = path.join(dir, `${name}.backup.gz`);
    await writeFile(file, gzipSync(`${changed.join('\n')}\n`));
    const before = await databaseFingerprint(t.deps.database.db);
    const result = await runAdminOn(t, 'restore', file, '--replace');
    expect(result.code).toBe(1);
    expect(result.out).toBe('');
    expect(await databaseFingerprint(t.deps.database.db)).toEqual(before);
    // Nothing from the file: no address, key hash, name, message or signing key.
    expect(result.err).not.toMatch(/@/);
    for (const secret of [...secretsIn(changed), 'Bogus-Type', 'many@example.com']) {
      expect(result.err).not.toContain(secret);
    }
    expect(result.err).not.toMatch(/params|Failing row|Key \(/);
    return { err: result.err, line: index + 1 };
  }

  it('a duplicated licence: table, line and constraint, no values', async () => {
    const { err, line } = await restoreTampered('duplicate', 'licences', (rows) => [
      ...rows,
      { ...rows[0] },
    ]);
    expect(err).toContain(`line ${line}`);
    expect(err).toContain('table licences');
    expect(err).toContain('licences_pkey');
    expect(err).toContain('Nothing was changed.');
  });

  it('a licence of an unknown type: the check constraint, no values', async () => {
    const { err, line } = await restoreTampered('check', 'licences', (rows) =>
      rows.map((row, n) => (n === 1 ? { ...row, type: 'Bogus-Type' } : row)),
    );
    expect(err).toContain(`line ${line}`);
    expect(err).toContain('licences_type_check');
  });

  it('a value of the wrong type: the column type, not the value', async () => {
    const { err, line } = await restoreTampered('type', 'licences', (rows) =>
      rows.map((row, n) => (n === 0 ? { ...row, quantity: 'many@example.com' } : row)),
    );
    expect(err).toContain(`line ${line}`);
    expect(err).toContain('table licences');
    expect(err).toContain('integer');
  });

  it('a contact message without its address: the column, not the row', async () => {
    const { err, line } = await restoreTampered('missing', 'contact_messages', (rows) =>
      rows.map((row) => ({ ...row, email: null })),
    );
    expect(err).toContain(`line ${line}`);
    expect(err).toContain('table contact_messages');
    expect(err).toContain('column email');
  });
});
