import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Admin commands are printers (decision 232): a command parses its arguments, calls its domain's
 * query or command function with `context.ports()` and prints the data it returns. The SQL, the
 * database client and the tables stay in the domain, where the console's endpoints call the same
 * functions. These files may reach for the database themselves, each for its reason.
 */
const aboutTheDatabaseItself: Readonly<Record<string, string>> = {
  // None today: backup, restore and `audit verify` call their domain's functions too. A command
  // that must read the database itself names its file here with why, e.g.
  // 'server/platform/db/db-admin-commands.ts': 'runs the migrations on the database itself',
};

/**
 * What a printer never imports: the database client, the query builder, the tables, and what
 * builds a second set of dependencies beside the server's (the payment provider, the runtime).
 */
const DATABASE_MODULES = [
  /create-payment-provider\.ts$/,
  /(^|\/)runtime\.ts$/,
  /^drizzle-orm(\/|$)/,
  /^pg$/,
  /^@electric-sql\/pglite(\/|$)/,
  /platform\/db\/(client|schema|migrate|migrations)(\.ts|\/|$)/,
];

/** What a printer never writes: SQL, or a query builder's calls. */
const QUERY_CODE = [
  /\bsql`/,
  /\bsql\.raw\(/,
  /\.execute\(/,
  /\.select\(\s*(\{|\))/,
  /\.insert\(/,
  /\.update\([a-z]/i,
  /\.delete\([a-z]/i,
  /\.transaction\(/,
];

function commandFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return commandFiles(file);
    return entry.name.endsWith('-admin-commands.ts') ? [file] : [];
  });
}

/** The modules a file imports, statically or on demand. */
function importsOf(source: string): string[] {
  const found: string[] = [];
  for (const match of source.matchAll(/(?:from|import)\s*\(?\s*['"]([^'"]+)['"]/g)) {
    if (match[1]) found.push(match[1]);
  }
  return found;
}

/** What in `source` reaches for the database itself, each as `import …` or the code. */
export function databaseUses(source: string): string[] {
  const imports = importsOf(source)
    .filter((module) => DATABASE_MODULES.some((pattern) => pattern.test(module)))
    .map((module) => `import ${module}`);
  const code = QUERY_CODE.flatMap((pattern) => {
    const match = pattern.exec(source);
    return match ? [match[0]] : [];
  });
  return [...imports, ...code];
}

describe('admin commands are printers (decision 232)', () => {
  const files = commandFiles('server').map((file) => file.split(path.sep).join('/'));

  it('import neither the database client nor SQL, unless they are about the database itself', () => {
    expect(files.length).toBeGreaterThan(15);
    const offenders = files
      .filter((file) => !(file in aboutTheDatabaseItself))
      .map((file) => ({ file, uses: databaseUses(readFileSync(file, 'utf8')) }))
      .filter(({ uses }) => uses.length > 0)
      .map(({ file, uses }) => `${file}: ${uses.join(', ')}`);
    expect(offenders).toEqual([]);
  });

  it('allows only files that exist and still need it', () => {
    const stale = Object.keys(aboutTheDatabaseItself).filter(
      (file) => !files.includes(file) || databaseUses(readFileSync(file, 'utf8')).length === 0,
    );
    expect(stale).toEqual([]);
  });

  it('catches what it is for', () => {
    expect(databaseUses("import { sql } from 'drizzle-orm';")).toEqual(['import drizzle-orm']);
    expect(databaseUses("import { licences } from '#server/platform/db/schema.ts';")).toHaveLength(
      1,
    );
    expect(
      databaseUses("const { openDatabase } = await import('../platform/db/client.ts');"),
    ).toHaveLength(1);
    expect(databaseUses('await db.execute(sql`select 1`);')).toEqual(['sql`', '.execute(']);
    expect(databaseUses('await db.select().from(licences);')).toEqual(['.select()']);
    expect(
      databaseUses("import { createPaymentProvider } from '../create-payment-provider.ts';"),
    ).toHaveLength(1);
    expect(
      databaseUses("import { searchCustomers } from './customer-search-repository.ts';"),
    ).toEqual([]);
  });
});
