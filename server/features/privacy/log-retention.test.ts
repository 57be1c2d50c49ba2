import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { retentionPeriods } from './retention-policy.ts';

const deployFile = (name: string) => new URL(`../../../deploy/${name}`, import.meta.url);
const DAY_S = 24 * 60 * 60;

/** journald's time spans as the kit writes them: `<n>day`, `<n>h` or seconds. */
function seconds(span: string): number {
  const match = /^(\d+)\s*(day|d|h|min|s)?$/.exec(span.trim());
  if (!match) throw new Error(`unreadable time span ${span}`);
  const unit = { day: DAY_S, d: DAY_S, h: 3600, min: 60, s: 1 }[match[2] ?? 's'] ?? 1;
  return Number(match[1]) * unit;
}

const compose = z.object({
  services: z.record(
    z.string(),
    z.object({ logging: z.object({ driver: z.string() }).optional() }),
  ),
});

describe('the deploy kit keeps logs at most as long as /privacy says', () => {
  it('sends every container’s log to journald', async () => {
    const file = compose.parse(parseYaml(await readFile(deployFile('compose.yaml'), 'utf8')));
    const services = Object.entries(file.services);
    expect(services.length).toBeGreaterThan(0);
    for (const [name, service] of services) expect(service.logging?.driver, name).toBe('journald');
  });

  it('lets journald keep no entry longer than the policy’s days', async () => {
    const conf = await readFile(deployFile('journald/orgsmith-logs.conf'), 'utf8');
    const setting = (key: string) => new RegExp(`^${key}=(.+)$`, 'm').exec(conf)?.[1] ?? '';
    // A file goes when its newest entry is past MaxRetentionSec; it spans at most MaxFileSec, and
    // the journal deletes when it starts a new file, so up to MaxFileSec late.
    const oldest = seconds(setting('MaxRetentionSec')) + 2 * seconds(setting('MaxFileSec'));
    expect(oldest).toBeLessThanOrEqual(retentionPeriods.serverLogDays * DAY_S);
  });
});
