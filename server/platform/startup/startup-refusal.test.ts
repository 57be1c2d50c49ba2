import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  dataDirRefusal,
  listenRefusal,
  oneLine,
  refusalLines,
  StartupRefusal,
} from './startup-refusal.ts';

/** The error Node gives for `operation` on `path`. */
async function failureOf(operation: () => Promise<unknown>): Promise<unknown> {
  try {
    await operation();
  } catch (error) {
    return error;
  }
  throw new Error('the operation succeeded');
}

describe('StartupRefusal', () => {
  it('is always one line', () => {
    const refusal = new StartupRefusal('PORT', 'first\n  second\r\nthird');
    expect(refusal.message).toBe('first second third');
    expect(refusalLines(refusal)).toEqual(['first second third']);
    expect(oneLine('  a\tb  ')).toBe('a b');
  });

  it('prints anything else as one line too, with its stack only when verbose', () => {
    const error = new Error('boom\nat line two');
    expect(refusalLines(error)).toEqual(['Cannot start: boom at line two']);
    const verbose = refusalLines(error, true);
    expect(verbose[0]).toBe('Cannot start: boom at line two');
    expect(verbose[1]).toContain('startup-refusal.test.ts');
  });
});

describe('dataDirRefusal', () => {
  it('turns a file-system error under DATA_DIR into one line naming DATA_DIR', async () => {
    const root = await mkdtemp(path.join(tmpdir(), 'orgsmith-refusal-'));
    try {
      const dir = path.join(root, 'dir');
      await mkdir(dir);
      const error = await failureOf(() => mkdir(path.join(dir, 'x', 'y')));
      const refusal = dataDirRefusal(error, root);
      expect(refusal).toBeInstanceOf(StartupRefusal);
      if (!(refusal instanceof StartupRefusal)) return;
      expect(refusal.variable).toBe('DATA_DIR');
      expect(refusal.message).toBe(
        `DATA_DIR ${root} cannot be used (mkdir ${path.join(dir, 'x', 'y')}: no such file or directory):` +
          ` give the directory to this server's user (uid ${process.getuid?.()}) or set DATA_DIR to a directory it may write.`,
      );
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });

  it('names permission problems as such and leaves other errors alone', () => {
    const denied = Object.assign(new Error('EACCES: permission denied, mkdir /d/pglite'), {
      code: 'EACCES',
      syscall: 'mkdir',
      path: '/d/pglite',
    });
    const refusal = dataDirRefusal(denied, '/d');
    expect(refusal).toBeInstanceOf(StartupRefusal);
    expect(refusal instanceof Error && refusal.message).toMatch(
      /^DATA_DIR \/d cannot be used \(mkdir \/d\/pglite: permission denied\)/,
    );
    const other = new Error('syntax error in migration');
    expect(dataDirRefusal(other, '/d')).toBe(other);
    const already = new StartupRefusal('DATA_DIR', 'in use');
    expect(dataDirRefusal(already, '/d')).toBe(already);
  });
});

describe('listenRefusal', () => {
  it('names PORT (and HOST) when the port is taken', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const address = taken.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    try {
      const second = createServer();
      const error = await new Promise((resolve) => {
        second.once('error', resolve);
        second.listen(port, '127.0.0.1');
      });
      const refusal = listenRefusal(error, 'PORT', port, '127.0.0.1');
      expect(refusal.variable).toBe('PORT');
      expect(refusal.message).toBe(
        `Cannot listen on PORT=${port} on HOST=127.0.0.1: the port is in use by another process: stop it or choose another port`,
      );
    } finally {
      taken.close();
    }
  });

  it('names METRICS_PORT for the metrics listener', () => {
    const error = Object.assign(new Error('listen EACCES'), { code: 'EACCES' });
    expect(listenRefusal(error, 'METRICS_PORT', 80, undefined).message).toBe(
      'Cannot listen on METRICS_PORT=80: this user may not listen on that port: choose one above 1023',
    );
  });
});
