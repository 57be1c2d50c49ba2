import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { migrationFiles } from './migrate.ts';

const migrationsDir = fileURLToPath(new URL('./migrations', import.meta.url));
/** The last migration written before the rule (docs/operations.md, decision 196); later ones follow it. */
const LAST_BEFORE_THE_RULE = '0811_sweeps_that_scale.sql';

/**
 * Statements that take something away from the previous release's code, which still serves while
 * a rolling deploy migrates: each needs a `-- contract:` line saying why no old instance uses it.
 */
const contracting: Array<[string, RegExp]> = [
  [
    'drops a table, view, column, type or function',
    /\bdrop\s+(?:table|view|column|type|function|schema)\b/i,
  ],
  ['renames', /\brename\b/i],
  ['changes a column type', /\balter\s+column\s+\S+\s+(?:set\s+data\s+)?type\b/i],
  ['makes a column NOT NULL', /\bset\s+not\s+null\b/i],
  [
    'adds a NOT NULL column without a default',
    /\badd\s+column\s+[^,;]*\bnot\s+null\b(?![^,;]*\bdefault\b)/i,
  ],
  ['adds a constraint the old code may break', /\badd\s+constraint\b/i],
];

/** What a migration does that the release before it would not survive. */
function contractingStatements(sql: string): string[] {
  if (/^\s*--\s*contract:\s*\S/im.test(sql)) return [];
  const code = sql.replace(/--.*$/gm, '');
  return contracting.filter(([, pattern]) => pattern.test(code)).map(([what]) => what);
}

describe('migrations are expand-only (rolling deploys, decision 196)', () => {
  it('flags what the previous release would not survive, unless marked as a contraction', () => {
    expect(contractingStatements('alter table a add column b text;')).toEqual([]);
    expect(contractingStatements('alter table a add column b int not null default 0;')).toEqual([]);
    expect(contractingStatements('create index a_b on a (b); drop index a_c;')).toEqual([]);
    expect(
      contractingStatements('-- we drop column x later\nalter table a add column y text;'),
    ).toEqual([]);
    expect(contractingStatements('alter table a drop column b;')).toEqual([
      'drops a table, view, column, type or function',
    ]);
    expect(contractingStatements('alter table a rename column b to c;')).toEqual(['renames']);
    expect(contractingStatements('alter table a alter column b type bigint;')).toEqual([
      'changes a column type',
    ]);
    expect(contractingStatements('alter table a alter column b set not null;')).toEqual([
      'makes a column NOT NULL',
    ]);
    expect(contractingStatements('alter table a add column b text not null;')).toEqual([
      'adds a NOT NULL column without a default',
    ]);
    expect(
      contractingStatements(
        '-- contract: release 4.2 stopped reading b; every instance runs it\nalter table a drop column b;',
      ),
    ).toEqual([]);
  });

  it('every migration after the rule keeps the previous release working', async () => {
    const files = (await migrationFiles()).filter((file) => file > LAST_BEFORE_THE_RULE);
    const found: Record<string, string[]> = {};
    for (const file of files) {
      const problems = contractingStatements(
        await readFile(path.join(migrationsDir, file), 'utf8'),
      );
      if (problems.length > 0) found[file] = problems;
    }
    expect(found).toEqual({});
  });
});
