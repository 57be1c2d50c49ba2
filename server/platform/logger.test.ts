import { spawn, spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

/** Runs `code` in a child Node with the logger imported, returning its standard output. */
function run(code: string): string {
  const result = spawnSync(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      `import { createLogger } from './server/platform/logger.ts';\n${code}`,
    ],
    { encoding: 'utf8', timeout: 20_000 },
  );
  expect(result.stderr).toBe('');
  return result.stdout;
}

const lines = (stdout: string) =>
  stdout
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { msg: string });

describe('createLogger', () => {
  it('writes a buffered line within the flush interval while the process keeps running', async () => {
    const child = spawn(process.execPath, [
      '--input-type=module',
      '-e',
      `import { createLogger } from './server/platform/logger.ts';
       createLogger('info').info('first');
       setTimeout(() => undefined, 3000);`,
    ]);
    const started = performance.now();
    const firstOutput = await new Promise<number>((resolve) =>
      child.stdout.once('data', () => resolve(performance.now() - started)),
    );
    const stillRunning = child.exitCode === null;
    child.kill();
    expect(stillRunning).toBe(true);
    // Start-up of the child plus at most one flush interval, far below its 3 s of life.
    expect(firstOutput).toBeLessThan(2500);
  });

  it('loses nothing at exit, also after process.exit and from several loggers', () => {
    const stdout = run(`
      const a = createLogger('info');
      const b = createLogger('info');
      for (let i = 0; i < 3000; i++) (i % 2 ? a : b).info({ i }, 'line');
      a.warn('last');
      process.exit(0);
    `);
    const written = lines(stdout);
    expect(written).toHaveLength(3001);
    expect(written.at(-1)?.msg).toBe('last');
  });
});
