import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { databaseTargets } from '../support/databases.ts';

/**
 * Issue 28 item 9 (decision 197): `npm run bench:scale` itself, small and fast, so the script
 * cannot rot — 1,000 licences seeded on a database of its own, every measure taken once, two
 * built servers under mixed load for 5 s. Needs PostgreSQL (always there in CI) and the build
 * (made here when missing or stale, as `npm run test:e2e` makes it).
 */
const figures = z.strictObject({
  licences: z.literal(1000),
  validate_rps: z.number().positive(),
  validate_p99_ms: z.number().nonnegative(),
  validate_p99_ms_1k: z.number().nonnegative(),
  validate_connections: z.literal(4),
  validate_p99_ms_queued: z.number().nonnegative(),
  sweep_ms: z.number().nonnegative(),
  sweep_rows_locked: z.number().int(),
  retention_ms: z.number().nonnegative(),
  backup_s: z.number().positive(),
  backup_mb: z.number().positive(),
  restore_s: z.number().positive(),
  instances: z.literal(2),
  mixed_requests: z.number().int().positive(),
  mixed_5xx: z.number().int(),
  // The console's search (decision 232).
  search_p50_ms: z.number().nonnegative(),
  search_p95_ms: z.number().nonnegative(),
});

describe.skipIf(!databaseTargets.some((target) => target.name === 'postgres'))(
  'npm run bench:scale',
  () => {
    it('seeds, measures every figure and prints them as its last line', () => {
      const built = spawnSync(process.execPath, ['scripts/build-stamp.ts', 'ensure'], {
        encoding: 'utf8',
      });
      expect(built.status, built.stderr).toBe(0);
      const bench = spawnSync(
        process.execPath,
        [
          'bench/scale.ts',
          ...['--licences', '1000', '--mixed-seconds', '5', '--instances', '2'],
          ...['--duration', '1', '--rounds', '1', '--warmup', '1', '--skip-build'],
        ],
        { encoding: 'utf8', timeout: 240_000 },
      );
      expect(bench.status, `${bench.stdout}\n${bench.stderr}`).toBe(0);
      const lines = bench.stdout.trim().split('\n');
      const last = figures.parse(JSON.parse(lines.at(-1) ?? ''));
      // Licences 1 and 2 of every 2,500 are due: the run locks exactly those two.
      expect(last.sweep_rows_locked).toBe(2);
      expect(last.mixed_5xx).toBe(0);
      // Throughput at 20 connections, latency at 4 (decision 199).
      expect(bench.stdout).toMatch(
        /Validation at 1000: \d+ req\/s \(p99 \d+ ms at 20 connections\); p50 \d+ ms, p99 \d+ ms at 4 connections/,
      );
      expect(bench.stdout).toContain('✓ sweep locked 2 rows, only the 2 due');
      expect(bench.stdout).toContain('✓ 0 × 5xx, 0 errors');
    }, 300_000);
  },
);
