import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { access, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { adminSocketPath } from '#server/platform/data-dir/admin-socket-path.ts';
import { ADMIN_ENTRY } from '#server/platform/node-flags.ts';
import { freePort } from '#tests/support/free-port.ts';
import { startInstance, type Instance } from './support/instance.ts';

/**
 * Issue 28, item 1 (decision 189), on a real server process and real `npm run admin` processes:
 * while the server runs on the embedded database each command runs in it, and prints the same
 * stdout and stderr with the same exit code as after the server has stopped, when the command
 * opens the database itself. `restore` says the service must stop.
 */
const START_TIMEOUT_MS = 120_000;

async function admin(argv: string[], env: Record<string, string>, cwd: string) {
  const child = spawn(process.execPath, [ADMIN_ENTRY, ...argv], {
    env: { ...process.env, DATABASE_URL: '', LOG_LEVEL: 'silent', ...env, INIT_CWD: cwd },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')));
  await once(child, 'exit');
  return { code: child.exitCode, out, err };
}

describe('admin commands on a running server, embedded database', () => {
  const dirs: string[] = [];
  let instance: Instance | undefined;
  afterAll(async () => {
    await instance?.stop();
    await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
  });

  it('prints the same output and exit code through the server as on the database', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'orgsmith-live-admin-data-'));
    const cwd = await mkdtemp(path.join(tmpdir(), 'orgsmith-live-admin-cwd-'));
    dirs.push(dataDir, cwd);
    const port = await freePort();
    // What the CLI reads of the environment, as the server's, so that both print the same.
    const env = {
      DATA_DIR: dataDir,
      PORT: String(port),
      CONSOLE_PORT: String(await freePort()),
      PUBLIC_BASE_URL: `http://localhost:${port}`,
      SECRET_KEY: 'fault-test-secret-key-0123456789abcdef',
    };
    instance = await startInstance({ port, env, timeoutMs: START_TIMEOUT_MS });
    const deadline = Date.now() + 10_000;
    while (
      !(await access(adminSocketPath(dataDir)).then(
        () => true,
        () => false,
      ))
    ) {
      if (Date.now() > deadline) throw new Error('no admin socket within 10 s');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const commands = [
      ['releases', 'list'],
      ['quotes', 'list'],
      ['quotes', 'show', 'Q-2099-0001'],
    ];
    const live = [];
    const started = Date.now();
    for (const argv of commands) live.push(await admin(argv, env, cwd));
    const liveMs = Date.now() - started;
    await writeFile(path.join(cwd, 'backup.jsonl.gz'), 'not read');
    const restore = await admin(['restore', 'backup.jsonl.gz'], env, cwd);
    expect(restore.code).toBe(1);
    expect(restore.out).toBe('');
    expect(restore.err).toBe(
      `restore needs the service stopped: a server is running on the embedded database in ${dataDir}.\n` +
        'Stop that server, run `npm run admin -- restore` again, then start the server.\n',
    );
    expect(instance.log.join('')).toContain('"msg":"admin command run"');
    expect(await instance.stop()).toBe(0);
    instance = undefined;

    const stopped = [];
    const stoppedAt = Date.now();
    for (const argv of commands) stopped.push(await admin(argv, env, cwd));
    console.log(
      `[admin on live server] ${commands.length} commands: ${liveMs} ms through the server, ${Date.now() - stoppedAt} ms opening the database each`,
    );
    expect(live).toEqual(stopped);
    expect(live[0]?.code).toBe(0);
    expect(live[0]?.out).toMatch(/^VERSION\s+DATE/);
    expect(live[2]).toEqual({ code: 1, out: '', err: 'No quote Q-2099-0001.\n' });
    // Each command run alone opens the embedded database (and its migrations): slow when busy.
  }, 600_000);
});
