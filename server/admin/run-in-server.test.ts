import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { adminSocketPath } from '../platform/data-dir/admin-socket-path.ts';
import type { AdminServerMessage } from './admin-socket-protocol.ts';
import { namedFiles, runInServer } from './run-in-server.ts';

/**
 * A server that sends `script` after the request, one message per reply it gets, and records the
 * request and the replies: a stand-in for a server that asks for more than it should.
 */
function scriptedServer(socketPath: string, script: AdminServerMessage[]) {
  const seen: unknown[] = [];
  const server: Server = createServer((socket) => {
    let buffer = '';
    let step = 0;
    const next = () => {
      const message = script[step++];
      // The script ends without an exit code: hang up, as a server that crashed.
      if (!message) {
        socket.destroy();
        return;
      }
      socket.write(`${JSON.stringify(message)}\n`);
      if (message.type === 'out' || message.type === 'err') next();
      if (message.type === 'exit') socket.end();
    };
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      buffer += chunk;
      for (let end = buffer.indexOf('\n'); end >= 0; end = buffer.indexOf('\n')) {
        seen.push(JSON.parse(buffer.slice(0, end)));
        buffer = buffer.slice(end + 1);
        next();
      }
    });
  });
  return { server, seen };
}

describe('runInServer', () => {
  let dir: string;
  let server: Server | undefined;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'run-in-server-'));
    await mkdir(path.join(dir, 'run'));
  });
  afterEach(async () => {
    await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
    server = undefined;
    await rm(dir, { recursive: true, force: true });
  });

  async function listen(script: AdminServerMessage[]) {
    const scripted = scriptedServer(adminSocketPath(dir), script);
    server = scripted.server;
    await new Promise<void>((resolve) => scripted.server.listen(adminSocketPath(dir), resolve));
    return scripted.seen;
  }

  it('answers undefined when no server listens', async () => {
    const io = { out: () => undefined, err: () => undefined };
    expect(await runInServer({ dataDir: dir, argv: ['quotes', 'list'], cwd: dir, io })).toBe(
      undefined,
    );
  });

  it('reads and writes only the files the command line names', async () => {
    await writeFile(path.join(dir, 'named.json'), '{"a":1}');
    await writeFile(path.join(dir, 'secret'), 'not for the server');
    const seen = await listen([
      { type: 'read', id: 0, path: path.join(dir, 'secret'), maxBytes: 100 },
      { type: 'read', id: 1, path: path.join(dir, 'named.json'), maxBytes: 100 },
      { type: 'write', id: 2, path: path.join(dir, 'elsewhere'), data: 'eA==' },
      { type: 'write', id: 3, path: path.join(dir, 'out.pdf'), data: 'JVBERg==' },
      { type: 'out', line: 'done' },
      { type: 'exit', code: 0 },
    ]);
    const out: string[] = [];
    const code = await runInServer({
      dataDir: dir,
      argv: ['x', 'named.json', '--pdf=out.pdf'],
      cwd: dir,
      io: { out: (line) => out.push(line), err: (line) => out.push(`err: ${line}`) },
    });
    expect(code).toBe(0);
    expect(out).toEqual(['done']);
    expect(seen).toEqual([
      // With the operator's user name, for the audit log's cli: actor (decision 224).
      {
        argv: ['x', 'named.json', '--pdf=out.pdf'],
        cwd: dir,
        user: expect.stringMatching(/^[\w.-]+$/),
      },
      {
        type: 'read',
        id: 0,
        reading: {
          reason: 'unreadable',
          message: `The server asked for ${path.join(dir, 'secret')}, which the command line does not name; refused.`,
        },
      },
      { type: 'read', id: 1, reading: { reason: 'ok', data: 'eyJhIjoxfQ==' } },
      {
        type: 'written',
        id: 2,
        error: `The server asked for ${path.join(dir, 'elsewhere')}, which the command line does not name; refused.`,
      },
      { type: 'written', id: 3 },
    ]);
    await expect(stat(path.join(dir, 'elsewhere'))).rejects.toThrow();
    expect(await readFile(path.join(dir, 'out.pdf'), 'utf8')).toBe('%PDF');
  });

  it('fails with exit code 1 when the server hangs up before the exit code', async () => {
    await listen([{ type: 'out', line: 'half' }]);
    const lines: string[] = [];
    const code = await runInServer({
      dataDir: dir,
      argv: ['quotes', 'list'],
      cwd: dir,
      io: { out: (line) => lines.push(line), err: (line) => lines.push(`err: ${line}`) },
    });
    expect(code).toBe(1);
    expect(lines).toEqual([
      'half',
      'err: The server closed the connection before the command finished; it may have done part of it.',
    ]);
  });

  it('names as files the arguments and option values, resolved against the directory', () => {
    expect([
      ...namedFiles(['quotes', 'show', 'Q-1', '--pdf', 'a.pdf', '--x=/abs/b'], '/w'),
    ]).toEqual([
      '/w/quotes',
      '/w/show',
      '/w/Q-1',
      '/w/--pdf',
      '/w/a.pdf',
      '/w/--x=/abs/b',
      '/abs/b',
    ]);
  });
});
