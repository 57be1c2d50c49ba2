import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { startInstance, type Instance } from '../faults/support/instance.ts';
import { freePort } from '#tests/support/free-port.ts';
import {
  getAll,
  junkUrls,
  percentile,
  realPagePaths,
  residentMb,
  type Answer,
  type JunkKind,
} from './support/junk-urls.ts';

/**
 * Issue 17, item 4, as an attacker runs it: thousands of distinct junk URLs 10 at a time against
 * the production server. Each must be answered from what is already stored (or a cheap 404), so
 * nothing new is rendered, nothing real is evicted and memory stays put. Needs `npm run build`.
 */
const JUNK = 3_000;
const RSS_GROWTH_LIMIT_MB = 64;
/** The page store's byte budget for page variants (decision 120). */
const STORE_BUDGET_BYTES = 32 * 1024 * 1024;

const storedLine = z.object({
  msg: z.literal('page stored'),
  key: z.string(),
  bytes: z.number(),
  variantBytes: z.number(),
});

describe('junk URLs against the production server', () => {
  let instance: Instance;
  let dataDir: string;
  let real: Map<string, Answer>;
  let junk: Array<Answer & { kind: JunkKind }>;
  let rssBefore: number;
  let rssAfter: number;
  let storedBeforeJunk: number;

  /** The page-store lines the server logged so far (LOG_LEVEL=debug). */
  function stored(): Array<z.infer<typeof storedLine>> {
    return instance.log
      .join('')
      .split('\n')
      .flatMap((line) => {
        if (!line.includes('"page stored"')) return [];
        const parsed = storedLine.safeParse(JSON.parse(line));
        return parsed.success ? [parsed.data] : [];
      });
  }

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'orgsmith-junk-'));
    instance = await startInstance({
      port: await freePort(),
      env: { DATA_DIR: dataDir, DATABASE_URL: '', LOG_LEVEL: 'debug' },
      timeoutMs: 120_000,
    });
    const pid = instance.process.pid ?? 0;
    // The real pages, and the pages junk URLs stand for, once each: all stored from here on.
    const warm = [...realPagePaths(), '/pricing?size=7', '/no-such-page'];
    const warmed = await getAll(instance.url, warm, 10);
    real = new Map(warmed.map((answer) => [answer.path, answer]));
    // The log lines trail the answers: wait for every page just stored to be reported.
    const expected = warm.map((page) => (page === '/no-such-page' ? '/404' : page));
    for (let waited = 0; waited < 10_000; waited += 100) {
      const keys = new Set(stored().map((line) => line.key));
      if (expected.every((key) => keys.has(key))) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    storedBeforeJunk = stored().length;
    rssBefore = await residentMb(pid);

    const urls = junkUrls(JUNK);
    const answers = await getAll(
      instance.url,
      urls.map((url) => url.path),
      10,
    );
    junk = answers.map((answer, i) => ({ ...answer, kind: urls[i]?.kind ?? 'unknown path' }));
    rssAfter = await residentMb(pid);
  }, 300_000);

  afterAll(async () => {
    await instance?.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  const ofKind = (kind: JunkKind) => junk.filter((answer) => answer.kind === kind);

  it('renders nothing new for junk: every answer comes from a page already stored', () => {
    const times = junk.map((answer) => answer.ms);
    console.log(
      `${JUNK} junk URLs: p50 ${percentile(times, 0.5).toFixed(1)} ms, p99 ${percentile(times, 0.99).toFixed(1)} ms; RSS ${rssBefore.toFixed(0)} → ${rssAfter.toFixed(0)} MB`,
    );
    expect(
      stored()
        .slice(storedBeforeJunk)
        .map((line) => line.key),
    ).toEqual([]);
    // Generous for a shared machine; a render costs 50–100 ms and more under load.
    expect(percentile(times, 0.5)).toBeLessThan(25);
  });

  it('answers every unknown path with the one stored 404 page: same bytes, same ETag', () => {
    const notFound = real.get('/no-such-page');
    const answers = ofKind('unknown path');
    expect(answers.length).toBeGreaterThan(100);
    for (const answer of answers) {
      expect(answer.status, answer.path).toBe(404);
      expect(answer.headers['content-type'], answer.path).toContain('text/html');
      expect(answer.headers['etag'], answer.path).toBe(notFound?.headers['etag']);
    }
    expect(new Set(answers.map((answer) => answer.bytes.toString('base64'))).size).toBe(1);
    expect(answers[0]?.bytes).toEqual(notFound?.bytes);
    expect(stored().filter((line) => line.key.startsWith('/404'))).toHaveLength(1);
  });

  it('serves the canonical page for unknown parameters, invalid values and other spellings', () => {
    const canonical = new Set(
      ['/', '/pricing', '/pricing?size=7', '/imprint', '/download', '/support'].map(
        (page) => real.get(page)?.headers['etag'],
      ),
    );
    canonical.add(real.get('/features/toolbox-commands')?.headers['etag']);
    for (const kind of ['unknown parameter', 'invalid value', 'path spelling'] as const) {
      for (const answer of ofKind(kind)) {
        expect(answer.status, answer.path).toBe(200);
        expect(canonical.has(answer.headers['etag']), answer.path).toBe(true);
      }
    }
    const spellings = ofKind('path spelling');
    expect(new Set(spellings.map((answer) => answer.headers['etag']))).toEqual(
      new Set([real.get('/features/toolbox-commands')?.headers['etag']]),
    );
  });

  it('answers unknown /api and /account/v1 paths with JSON 404, unknown /assets with plain 404', () => {
    for (const kind of ['unknown /api', 'unknown /account/v1'] as const) {
      for (const answer of ofKind(kind)) {
        expect(answer.status, answer.path).toBe(404);
        expect(answer.headers['content-type'], answer.path).toContain('application/json');
        expect(JSON.parse(answer.bytes.toString('utf8'))).toMatchObject({ Error: 'NotFound' });
      }
    }
    for (const answer of ofKind('unknown /assets')) {
      expect(answer.status, answer.path).toBe(404);
      expect(answer.headers['content-type'], answer.path).toContain('text/plain');
      expect(answer.bytes.length, answer.path).toBeLessThan(100);
    }
  });

  it('still serves the real pages from the store afterwards, unchanged', async () => {
    const renders = stored().length;
    const again = await getAll(instance.url, [...real.keys()], 10);
    for (const answer of again) {
      expect(answer.headers['etag'], answer.path).toBe(real.get(answer.path)?.headers['etag']);
    }
    expect(stored().length).toBe(renders);
  });

  it('keeps the store within its budget and memory within 64 MB', () => {
    for (const line of stored()) expect(line.variantBytes).toBeLessThanOrEqual(STORE_BUDGET_BYTES);
    expect(rssAfter - rssBefore).toBeLessThan(RSS_GROWTH_LIMIT_MB);
  });
});
