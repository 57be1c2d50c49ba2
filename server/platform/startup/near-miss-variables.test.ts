import { describe, expect, it } from 'vitest';
import { KNOWN_VARIABLES } from '#server/env.ts';
import { editDistance, findNearMisses, nearMissWarning } from './near-miss-variables.ts';

describe('editDistance', () => {
  it('counts a swap of neighbours as one edit', () => {
    expect(editDistance('SMTP_ULR', 'SMTP_URL')).toBe(1);
    expect(editDistance('LOG_LEVLE', 'LOG_LEVEL')).toBe(1);
    expect(editDistance('DATABSE_URL', 'DATABASE_URL')).toBe(1);
    expect(editDistance('PORT', 'PORT')).toBe(0);
    expect(editDistance('HOME', 'HOST')).toBe(2);
    expect(editDistance('', 'HOST')).toBe(4);
  });
});

describe('findNearMisses against the server’s variables', () => {
  const find = (...names: string[]) => findNearMisses(names, KNOWN_VARIABLES);

  it.each([
    ['SMTP_ULR', 'SMTP_URL'],
    ['LOG_LEVLE', 'LOG_LEVEL'],
    ['DATABSE_URL', 'DATABASE_URL'],
    ['LOGLEVEL', 'LOG_LEVEL'],
    ['smtp_url', 'SMTP_URL'],
    ['Port', 'PORT'],
    ['PORTT', 'PORT'],
    ['STRIPE_SECRET_KYE', 'STRIPE_SECRET_KEY'],
    ['STRIPE_WEBHOK_SECRET', 'STRIPE_WEBHOOK_SECRET'],
    ['PUBLIC_BASEURL', 'PUBLIC_BASE_URL'],
    ['DATA_DIRS', 'DATA_DIR'],
    ['MAIL_TRANSPROT', 'MAIL_TRANSPORT'],
  ])('takes %s for %s', (name, meant) => {
    expect(find(name)).toEqual([{ name, meant }]);
  });

  it('leaves alone what other programs set and names far from ours', () => {
    const environment = [
      'PATH',
      'HOME',
      'HOSTNAME',
      'USER',
      'SHELL',
      'TERM',
      'LANG',
      'PWD',
      'OLDPWD',
      'SHLVL',
      'TMPDIR',
      'TZ',
      'CI',
      'EDITOR',
      'LOGNAME',
      'MAIL',
      'DISPLAY',
      'DEBUG',
      'COLORTERM',
      'NODE_OPTIONS',
      'NODE_PATH',
      'NODE_EXTRA_CA_CERTS',
      'npm_config_cache',
      'npm_lifecycle_event',
      'npm_package_name',
      'INIT_CWD',
      'MALLOC_ARENA_MAX',
      'HTTP_PROXY',
      'HTTPS_PROXY',
      'NO_PROXY',
      'PGHOST',
      'PGPORT',
      'PGUSER',
      'PGDATABASE',
      'JAVA_HOME',
      'XDG_RUNTIME_DIR',
      'XDG_DATA_DIRS',
      'SSH_AUTH_SOCK',
      'INVOCATION_ID',
      'JOURNAL_STREAM',
      'SYSTEMD_EXEC_PID',
      'LS_COLORS',
      'VITEST',
      'VITEST_POOL_ID',
      'FORCE_COLOR',
      'NO_COLOR',
      'TEST_POSTGRES_URL',
      'SMTP_USER',
      'SMTP_PASSWORD',
    ];
    expect(find(...environment)).toEqual([]);
  });

  it('never names a known variable', () => {
    expect(find(...KNOWN_VARIABLES)).toEqual([]);
  });

  it('says it in one line, sorted by name', () => {
    const misses = find('SMTP_ULR', 'LOG_LEVLE');
    expect(nearMissWarning(misses)).toBe(
      'ignored unknown variables LOG_LEVLE (did you mean LOG_LEVEL?), SMTP_ULR (did you mean SMTP_URL?)',
    );
    expect(nearMissWarning(find('SMTP_ULR'))).toBe(
      'ignored unknown variable SMTP_ULR (did you mean SMTP_URL?)',
    );
  });
});
