import { describe, expect, it } from 'vitest';
import { parseEnv } from './env.ts';

describe('parseEnv', () => {
  it('gives the embedded defaults when nothing is set', () => {
    const env = parseEnv({});
    expect(env.PORT).toBe(3000);
    expect(env.PUBLIC_BASE_URL).toBe('http://localhost:3000');
    expect(env.DATA_DIR).toBe('./var');
    expect(env.DATABASE_URL).toBeUndefined();
    expect(env.DATABASE_POOL_MAX).toBe(10);
  });

  it('takes the pool size per instance within 1..1000', () => {
    expect(parseEnv({ DATABASE_POOL_MAX: '4' }).DATABASE_POOL_MAX).toBe(4);
    expect(() => parseEnv({ DATABASE_POOL_MAX: '0' })).toThrow(/DATABASE_POOL_MAX/);
    expect(() => parseEnv({ DATABASE_POOL_MAX: 'many' })).toThrow(/DATABASE_POOL_MAX/);
  });

  it('derives PUBLIC_BASE_URL from PORT and strips trailing slashes', () => {
    expect(parseEnv({ PORT: '4100' }).PUBLIC_BASE_URL).toBe('http://localhost:4100');
    expect(
      parseEnv({ PUBLIC_BASE_URL: 'https://orgsmith.io/', PAYMENT_PROVIDER: 'local' })
        .PUBLIC_BASE_URL,
    ).toBe('https://orgsmith.io');
  });

  it('treats empty strings as unset', () => {
    expect(parseEnv({ DATABASE_URL: '', PORT: '' }).PORT).toBe(3000);
  });

  it('names every bad variable in one message', () => {
    expect(() =>
      parseEnv({ PORT: 'abc', DATABASE_URL: 'mysql://x', GA_MEASUREMENT_ID: 'UA-1' }),
    ).toThrow(/PORT[\s\S]*DATABASE_URL[\s\S]*GA_MEASUREMENT_ID/);
  });
});

describe('payments on a public origin (decision 126)', () => {
  it('refuses to start without Stripe keys, in one line naming both variables', () => {
    let message = '';
    try {
      parseEnv({ PUBLIC_BASE_URL: 'https://orgsmith.io', NODE_ENV: 'production' });
    } catch (error) {
      message = error instanceof Error ? error.message : '';
    }
    const lines = message.split('\n').filter((line) => line.includes('STRIPE_SECRET_KEY'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('STRIPE_WEBHOOK_SECRET');
    expect(lines[0]).toContain('PAYMENT_PROVIDER=local');
  });

  it('accepts only the two provider names', () => {
    expect(() => parseEnv({ PAYMENT_PROVIDER: 'Local' })).toThrow(/PAYMENT_PROVIDER/);
    expect(parseEnv({ PAYMENT_PROVIDER: 'local' }).payments).toEqual({
      provider: 'local',
      testModeNotice: true,
      loopbackOnly: false,
    });
    expect(parseEnv({}).payments).toEqual({
      provider: 'local',
      testModeNotice: false,
      loopbackOnly: true,
    });
  });

  it('takes HOST as an address or localhost, and beyond loopback only with keys (decision 156)', () => {
    expect(() => parseEnv({ HOST: 'example.com' })).toThrow(/HOST: must be an IP address/);
    expect(parseEnv({ HOST: '127.0.0.1' }).payments.loopbackOnly).toBe(true);
    expect(parseEnv({ HOST: 'localhost' }).HOST).toBe('localhost');
    let message = '';
    try {
      parseEnv({ HOST: '0.0.0.0', NODE_ENV: 'production' });
    } catch (error) {
      message = error instanceof Error ? error.message : '';
    }
    const lines = message.split('\n').filter((line) => line.includes('HOST=0.0.0.0'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET');
    expect(lines[0]).toContain('PAYMENT_PROVIDER=local');
    expect(parseEnv({ HOST: '0.0.0.0', PAYMENT_PROVIDER: 'local' }).payments).toMatchObject({
      testModeNotice: true,
      loopbackOnly: false,
    });
  });
});

describe('metrics access (decision 131)', () => {
  const token = 'metrics-token-0123456789abcdef0123456789';

  it('is off by default', () => {
    const env = parseEnv({});
    expect(env.METRICS_TOKEN).toBeUndefined();
    expect(env.METRICS_PORT).toBeUndefined();
  });

  it('takes a long bearer token and a port of its own, on loopback unless told otherwise', () => {
    const env = parseEnv({ METRICS_TOKEN: token, METRICS_PORT: '9464' });
    expect(env.METRICS_TOKEN).toBe(token);
    expect(env.METRICS_PORT).toBe(9464);
    expect(env.METRICS_HOST).toBe('127.0.0.1');
    expect(parseEnv({ METRICS_PORT: '9464', METRICS_HOST: '::1' }).METRICS_HOST).toBe('::1');
  });

  it('refuses a short or unprintable token, a port in use and a host without a port', () => {
    expect(() => parseEnv({ METRICS_TOKEN: 'short' })).toThrow(/METRICS_TOKEN/);
    expect(() => parseEnv({ METRICS_TOKEN: `${token} x` })).toThrow(/METRICS_TOKEN/);
    expect(() => parseEnv({ METRICS_PORT: '3000' })).toThrow(/METRICS_PORT.*PORT/);
    expect(() => parseEnv({ METRICS_PORT: '70000' })).toThrow(/METRICS_PORT/);
    expect(() => parseEnv({ METRICS_HOST: '127.0.0.1' })).toThrow(/METRICS_HOST.*METRICS_PORT/);
    expect(() => parseEnv({ METRICS_PORT: '9464', METRICS_HOST: 'example.com' })).toThrow(
      /METRICS_HOST/,
    );
  });

  it('opens the metrics port beyond loopback only with a token', () => {
    expect(() => parseEnv({ METRICS_PORT: '9464', METRICS_HOST: '0.0.0.0' })).toThrow(
      /METRICS_HOST.*METRICS_TOKEN/,
    );
    expect(
      parseEnv({ METRICS_PORT: '9464', METRICS_HOST: '0.0.0.0', METRICS_TOKEN: token })
        .METRICS_HOST,
    ).toBe('0.0.0.0');
  });
});

describe('scheduled backups (decision 130)', () => {
  it('are off without BACKUP_DIR, every 24h keeping 7 with it', () => {
    const off = parseEnv({});
    expect(off.BACKUP_DIR).toBeUndefined();
    expect(off.BACKUP_EVERY).toBeUndefined();
    expect(parseEnv({ BACKUP_DIR: '/srv/backups' })).toMatchObject({
      BACKUP_DIR: '/srv/backups',
      BACKUP_EVERY: 86_400_000,
      BACKUP_KEEP: 7,
    });
    expect(
      parseEnv({ BACKUP_DIR: '/srv/backups', BACKUP_EVERY: '30m', BACKUP_KEEP: '48' }),
    ).toMatchObject({ BACKUP_EVERY: 1_800_000, BACKUP_KEEP: 48 });
  });

  it('names a bad interval or count, and a schedule without a directory', () => {
    expect(() => parseEnv({ BACKUP_DIR: '/b', BACKUP_EVERY: 'daily' })).toThrow(
      /BACKUP_EVERY: must be a whole number and one unit: s, m, h or d \(e\.g\. 30m, 24h, 7d\)/,
    );
    expect(() => parseEnv({ BACKUP_DIR: '/b', BACKUP_KEEP: '0' })).toThrow(/BACKUP_KEEP/);
    expect(() => parseEnv({ BACKUP_EVERY: '24h', BACKUP_KEEP: '3' })).toThrow(
      /BACKUP_EVERY: needs BACKUP_DIR[\s\S]*BACKUP_KEEP: needs BACKUP_DIR/,
    );
  });
});
