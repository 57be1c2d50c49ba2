import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { KNOWN_VARIABLES, parseEnv } from './env.ts';
import { StartupRefusal } from './platform/startup/startup-refusal.ts';

/** The refusal parseEnv throws for `source`: its one line and the variable it names. */
function refusalOf(source: Record<string, string>, purpose: 'serve' | 'admin' = 'serve') {
  try {
    parseEnv(source, purpose);
  } catch (error) {
    if (!(error instanceof StartupRefusal)) throw error;
    return { line: error.message, variable: error.variable };
  }
  throw new Error('parseEnv accepted the settings');
}

describe('parseEnv', () => {
  it('gives the embedded defaults when nothing is set', () => {
    const env = parseEnv({});
    expect(env.PORT).toBe(3000);
    expect(env.PUBLIC_BASE_URL).toBe('http://localhost:3000');
    // The project folder's var/, whatever the working directory (decision 217).
    expect(env.DATA_DIR).toBe(path.resolve(import.meta.dirname, '..', 'var'));
    expect(env.DATABASE_URL).toBeUndefined();
    expect(env.DATABASE_POOL_MAX).toBe(10);
  });

  it('takes the pool size per instance within 1..1000', () => {
    expect(parseEnv({ DATABASE_POOL_MAX: '4' }).DATABASE_POOL_MAX).toBe(4);
    expect(() => parseEnv({ DATABASE_POOL_MAX: '0' })).toThrow(/DATABASE_POOL_MAX/);
    expect(() => parseEnv({ DATABASE_POOL_MAX: 'many' })).toThrow(/DATABASE_POOL_MAX/);
  });

  it('takes a direct URL beside a pooled one, and time limits in milliseconds (decision 237)', () => {
    const pooled = 'postgres://orgsmith@127.0.0.1:6432/orgsmith';
    const direct = 'postgres://orgsmith@127.0.0.1:5432/orgsmith';
    expect(parseEnv({ DATABASE_URL: direct }).DATABASE_DIRECT_URL).toBe(direct);
    const env = parseEnv({
      DATABASE_URL: pooled,
      DATABASE_DIRECT_URL: direct,
      DATABASE_STATEMENT_TIMEOUT_MS: '5000',
      DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS: '0',
    });
    expect(env.DATABASE_DIRECT_URL).toBe(direct);
    expect(env.databaseTimeouts).toEqual({
      statementTimeoutMs: 5000,
      idleInTransactionTimeoutMs: 0,
    });
    expect(parseEnv({}).databaseTimeouts).toEqual({
      statementTimeoutMs: 30_000,
      idleInTransactionTimeoutMs: 60_000,
    });
    expect(() => parseEnv({ DATABASE_DIRECT_URL: direct })).toThrow(
      /DATABASE_DIRECT_URL: needs DATABASE_URL/,
    );
    expect(() => parseEnv({ DATABASE_URL: pooled, DATABASE_DIRECT_URL: 'mysql://x' })).toThrow(
      /DATABASE_DIRECT_URL: must be a postgres:\/\/ URL/,
    );
    expect(() => parseEnv({ DATABASE_STATEMENT_TIMEOUT_MS: '-1' })).toThrow(
      /DATABASE_STATEMENT_TIMEOUT_MS/,
    );
  });

  it('derives PUBLIC_BASE_URL from PORT and strips trailing slashes', () => {
    expect(parseEnv({ PORT: '4100' }).PUBLIC_BASE_URL).toBe('http://localhost:4100');
    expect(
      parseEnv({
        PUBLIC_BASE_URL: 'https://orgsmith.io/',
        PAYMENT_PROVIDER: 'local',
        MAIL_TRANSPORT: 'file',
      }).PUBLIC_BASE_URL,
    ).toBe('https://orgsmith.io');
  });

  it('offers no pay by invoice into a published example IBAN on a public origin', () => {
    const publicSite = {
      PUBLIC_BASE_URL: 'https://orgsmith.io',
      PAYMENT_PROVIDER: 'local',
      MAIL_TRANSPORT: 'file',
    } as const;
    // The site config's accounts are the banks' examples: kept on loopback, dropped in public.
    expect(Object.keys(parseEnv({}).bankAccounts).sort()).toEqual(['EUR', 'USD']);
    expect(parseEnv(publicSite).bankAccounts).toEqual({});
    // Set again by hand, an example is still not an account to pay into.
    expect(
      parseEnv({
        ...publicSite,
        BANK_ACCOUNT_EUR: 'Orgsmith GmbH; DE89 3704 0044 0532 0130 00; COBADEFFXXX; Commerzbank',
      }).bankAccounts,
    ).toEqual({});
    // A real-looking account of the deployment's own is offered.
    expect(
      parseEnv({
        ...publicSite,
        BANK_ACCOUNT_EUR: 'Orgsmith GmbH; DE02 1203 0000 0000 2020 51; BYLADEM1001; DKB',
      }).bankAccounts,
    ).toEqual({
      EUR: {
        holder: 'Orgsmith GmbH',
        iban: 'DE02120300000000202051',
        bic: 'BYLADEM1001',
        bank: 'DKB',
      },
    });
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

describe('the operator console (decision 226)', () => {
  it('listens on 3001 at http://localhost:3001 by default, or where it is told', () => {
    expect(parseEnv({})).toMatchObject({
      CONSOLE_PORT: 3001,
      CONSOLE_ORIGIN: 'http://localhost:3001',
    });
    expect(parseEnv({ CONSOLE_PORT: '4001' }).CONSOLE_ORIGIN).toBe('http://localhost:4001');
    expect(parseEnv({ CONSOLE_ORIGIN: 'https://console.example.com/' }).CONSOLE_ORIGIN).toBe(
      'https://console.example.com',
    );
  });

  it('refuses an origin with a path, the public port, and a host that is not an address', () => {
    expect(() => parseEnv({ CONSOLE_ORIGIN: 'https://example.com/console' })).toThrow(
      /CONSOLE_ORIGIN: must be an origin without a path/,
    );
    expect(() => parseEnv({ PORT: '3001' })).toThrow(/CONSOLE_PORT: must differ from PORT/);
    expect(() => parseEnv({ CONSOLE_HOST: 'console.example.com' })).toThrow(/CONSOLE_HOST/);
    expect(() => parseEnv({ CONSOLE_PORT: '0' })).toThrow(/CONSOLE_PORT/);
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

describe('start-up refusals: one line naming the variable (decision 217)', () => {
  it('names every bad variable on one line', () => {
    const refusal = refusalOf({
      PORT: 'abc',
      DATABASE_URL: 'mysql://x',
      GA_MEASUREMENT_ID: 'UA-1',
    });
    expect(refusal.line).not.toContain('\n');
    expect(refusal.line).toMatch(
      /^Invalid environment: PORT: must be a whole number from 1 to 65535; /,
    );
    expect(refusal.line).toContain('DATABASE_URL: must be a postgres:// URL');
    expect(refusal.variable).toBe('PORT');
  });

  it.each([
    ['PORT', '3000.5', 'must be a whole number from 1 to 65535'],
    ['PORT', '70000', 'must be a whole number from 1 to 65535'],
    ['DATABASE_POOL_MAX', 'ten', 'must be a whole number from 1 to 1000'],
    ['LICENSE_VALIDATION_RATE_LIMIT', '-1', 'must be a whole number of at least 0'],
    ['HTTP_MAX_CONNECTIONS', '1e9', 'must be a whole number from 1 to 1000000'],
    ['BACKUP_KEEP', '0', 'must be a whole number from 1 to 10000'],
  ])('refuses %s=%s as a bad number', (variable, value, message) => {
    const extra: Record<string, string> =
      variable === 'BACKUP_KEEP' ? { BACKUP_DIR: '/tmp/b' } : {};
    const refusal = refusalOf({ [variable]: value, ...extra });
    expect(refusal).toEqual({ line: `Invalid environment: ${variable}: ${message}`, variable });
  });

  it('refuses PUBLIC_BASE_URL without a scheme before any payment or mail check', () => {
    for (const value of ['localhost:3000', 'orgsmith.io', 'ftp://orgsmith.io', 'http://']) {
      const refusal = refusalOf({ PUBLIC_BASE_URL: value });
      expect(refusal.variable, value).toBe('PUBLIC_BASE_URL');
      expect(refusal.line, value).toBe(
        'Invalid environment: PUBLIC_BASE_URL: must be an http:// or https:// URL, e.g. https://orgsmith.example or http://localhost:3000',
      );
      expect(refusal.line).not.toContain('STRIPE');
    }
    expect(refusalOf({ DOWNLOAD_BASE_URL: 'downloads.orgsmith.io' }).variable).toBe(
      'DOWNLOAD_BASE_URL',
    );
  });

  it('names the variable of a refusal that has no path of its own', () => {
    const refusal = refusalOf({ PUBLIC_BASE_URL: 'https://orgsmith.io' });
    expect(refusal.variable).toBe('STRIPE_SECRET_KEY');
    expect(refusal.line).not.toContain('\n');
  });
});

describe('e-mails as files on a public origin (decision 217)', () => {
  const publicSite = { PUBLIC_BASE_URL: 'https://orgsmith.example', PAYMENT_PROVIDER: 'local' };

  it('writes files on a loopback origin without asking, and sends by SMTP when it is set', () => {
    expect(parseEnv({}).mail).toEqual({ transport: 'file', onPurpose: false });
    expect(parseEnv({ SMTP_URL: 'smtp://127.0.0.1:2525' }).mail).toEqual({
      transport: 'smtp',
      onPurpose: false,
    });
    expect(parseEnv({ ...publicSite, SMTP_URL: 'smtp://relay:587' }).mail.transport).toBe('smtp');
  });

  it('refuses to start a public origin that would write e-mails to disk unasked', () => {
    const refusal = refusalOf(publicSite);
    expect(refusal.variable).toBe('SMTP_URL');
    expect(refusal.line).toMatch(/^Invalid environment: SMTP_URL: is not set, so e-mails/);
    expect(refusal.line).toContain('MAIL_TRANSPORT=file');
    expect(refusal.line).toContain('https://orgsmith.example');
    // The admin command line runs with the same settings (it sends nothing itself).
    expect(parseEnv(publicSite, 'admin').mail.transport).toBe('file');
  });

  it('writes files on a public origin when MAIL_TRANSPORT=file says so', () => {
    expect(parseEnv({ ...publicSite, MAIL_TRANSPORT: 'file' }).mail).toEqual({
      transport: 'file',
      onPurpose: true,
    });
  });

  it('refuses a MAIL_TRANSPORT that contradicts SMTP_URL, or is neither smtp nor file', () => {
    expect(refusalOf({ MAIL_TRANSPORT: 'smtp' })).toMatchObject({ variable: 'SMTP_URL' });
    expect(refusalOf({ MAIL_TRANSPORT: 'file', SMTP_URL: 'smtp://relay:587' })).toMatchObject({
      variable: 'MAIL_TRANSPORT',
    });
    expect(refusalOf({ MAIL_TRANSPORT: 'sendmail' })).toEqual({
      variable: 'MAIL_TRANSPORT',
      line: 'Invalid environment: MAIL_TRANSPORT: must be smtp or file',
    });
  });
});

describe('unknown variables that look like ours (decision 217)', () => {
  it('names them for a warning on a loopback origin and starts', () => {
    const env = parseEnv({ SMTP_ULR: 'smtp://relay:587', LOG_LEVLE: 'debug', PATH: '/usr/bin' });
    expect(env.nearMisses).toEqual([
      { name: 'LOG_LEVLE', meant: 'LOG_LEVEL' },
      { name: 'SMTP_ULR', meant: 'SMTP_URL' },
    ]);
    expect(env.SMTP_URL).toBeUndefined();
  });

  it('refuses them on a public origin, in one line naming each and its likely meaning', () => {
    const refusal = refusalOf({
      PUBLIC_BASE_URL: 'https://orgsmith.example',
      PAYMENT_PROVIDER: 'local',
      MAIL_TRANSPORT: 'file',
      DATABSE_URL: 'postgres://db/orgsmith',
    });
    expect(refusal).toEqual({
      variable: 'DATABSE_URL',
      line: 'Invalid environment: unknown variable DATABSE_URL (did you mean DATABASE_URL?), refused on the public origin https://orgsmith.example: rename or remove it',
    });
  });

  it('puts the slip first when it explains another refusal', () => {
    const refusal = refusalOf({
      PUBLIC_BASE_URL: 'https://orgsmith.example',
      PAYMENT_PROVIDER: 'local',
      SMTP_ULR: 'smtp://relay:587',
    });
    expect(refusal.variable).toBe('SMTP_ULR');
    expect(refusal.line).toMatch(
      /^Invalid environment: unknown variable SMTP_ULR \(did you mean SMTP_URL\?\), refused on the public origin https:\/\/orgsmith.example: rename or remove it; SMTP_URL: is not set/,
    );
  });

  it('leaves the rest of the environment alone', () => {
    const env = parseEnv({
      PATH: '/usr/bin',
      HOME: '/root',
      HOSTNAME: 'web-1',
      NODE_OPTIONS: '--max-old-space-size=512',
      npm_lifecycle_event: 'serve',
      INIT_CWD: '/srv',
      MALLOC_ARENA_MAX: '2',
      PUBLIC_BASE_URL: 'https://orgsmith.example',
      PAYMENT_PROVIDER: 'local',
      MAIL_TRANSPORT: 'file',
    });
    expect(env.nearMisses).toEqual([]);
  });
});

describe('docs/configuration.md', () => {
  it('documents every variable the server reads', async () => {
    const doc = await readFile(
      path.resolve(import.meta.dirname, '../docs/configuration.md'),
      'utf8',
    );
    const set = ['MALLOC_ARENA_MAX', 'INIT_CWD']; // set by the start scripts and npm, not operators
    const missing = KNOWN_VARIABLES.filter(
      (name) => !set.includes(name) && !doc.includes(`\`${name}\``),
    );
    expect(missing).toEqual([]);
  });
});
