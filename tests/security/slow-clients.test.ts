import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseEnv } from '#server/env.ts';
import { startInstance, type Instance } from '#tests/faults/support/instance.ts';
import { freePort } from '#tests/support/free-port.ts';

/**
 * Issue 38, slow clients (decision 206): a client sending one header line every 10 s was held
 * 82 s, one sending a body byte every 10 s 323 s, and connections had no cap, so a few hundred
 * such clients held the server's sockets at no cost to themselves. Now headers must arrive
 * within 10 s, the whole request within 30 s (answered 408 and closed), and connections beyond
 * HTTP_MAX_CONNECTIONS are closed as they arrive. The production build, with the limits lowered
 * through its environment so the test takes seconds.
 */
const HEADERS_SECONDS = 1;
const REQUEST_SECONDS = 2;
const MAX_CONNECTIONS = 6;
/** Node looks for late requests every quarter of the headers timeout; more for a busy machine. */
const SLACK_MS = 4_000;

interface Trickle {
  /** Milliseconds from the first byte until the server closed the connection. */
  heldMs: number;
  /** What the server answered before closing, if anything. */
  answer: string;
}

/** Sends `first`, then `next` every `everyMs` until the server closes (or `giveUpMs` passes). */
async function trickle(
  port: number,
  first: string,
  next: string,
  options: { everyMs: number; giveUpMs: number },
): Promise<Trickle> {
  const socket = connect(port, '127.0.0.1');
  await once(socket, 'connect');
  const started = Date.now();
  let answer = '';
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => (answer += chunk));
  socket.on('error', (error) => (answer += `[${error.message}]`));
  socket.write(first);
  const timer = setInterval(() => {
    if (!socket.destroyed && socket.writable) socket.write(next);
  }, options.everyMs);
  const giveUp = setTimeout(() => socket.destroy(), options.giveUpMs);
  // A reset counts as closed too.
  await new Promise((resolve) => socket.once('close', resolve));
  clearInterval(timer);
  clearTimeout(giveUp);
  return { heldMs: Date.now() - started, answer };
}

describe('connection limits', () => {
  it('default to 10 s for headers, 30 s for the whole request and 1,000 connections', () => {
    expect(parseEnv({}).connectionLimits).toEqual({
      headersTimeoutMs: 10_000,
      requestTimeoutMs: 30_000,
      maxConnections: 1_000,
    });
    expect(() =>
      parseEnv({ HTTP_HEADERS_TIMEOUT_SECONDS: '40', HTTP_REQUEST_TIMEOUT_SECONDS: '30' }),
    ).toThrow(/HTTP_HEADERS_TIMEOUT_SECONDS: must not be more than HTTP_REQUEST_TIMEOUT_SECONDS/);
    expect(() => parseEnv({ HTTP_MAX_CONNECTIONS: '0' })).toThrow(/HTTP_MAX_CONNECTIONS/);
  });
});

describe('a server facing slow clients', () => {
  let instance: Instance;
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'orgsmith-slow-clients-'));
    instance = await startInstance({
      timeoutMs: 120_000,
      port: await freePort(),
      env: {
        DATA_DIR: dataDir,
        LOG_LEVEL: 'warn',
        HTTP_HEADERS_TIMEOUT_SECONDS: String(HEADERS_SECONDS),
        HTTP_REQUEST_TIMEOUT_SECONDS: String(REQUEST_SECONDS),
        HTTP_MAX_CONNECTIONS: String(MAX_CONNECTIONS),
      },
    });
  });
  afterAll(async () => {
    await instance?.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('cuts off a client sending its headers one line at a time', async () => {
    const held = await trickle(
      instance.port,
      'GET /pricing HTTP/1.1\r\nHost: localhost\r\n',
      'X-Slow: 1\r\n',
      { everyMs: 200, giveUpMs: 10_000 },
    );
    expect(held.heldMs).toBeLessThan(HEADERS_SECONDS * 1000 + SLACK_MS);
    expect(held.heldMs).toBeGreaterThanOrEqual(HEADERS_SECONDS * 1000 - 100);
    expect(held.answer).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('cuts off a client sending its body one byte at a time', async () => {
    const body =
      '{"licenseKey":"ORGS-0000-0000-0000-0000-0000-0000-0000","productId":"orgsmith-cli"}';
    const held = await trickle(
      instance.port,
      'POST /account/v1/licenses/validate HTTP/1.1\r\nHost: localhost\r\n' +
        `Content-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n{`,
      ' ',
      { everyMs: 200, giveUpMs: 10_000 },
    );
    expect(held.heldMs).toBeLessThan(REQUEST_SECONDS * 1000 + SLACK_MS);
    expect(held.heldMs).toBeGreaterThanOrEqual(REQUEST_SECONDS * 1000 - 100);
    // The 408, unless the byte this client was still sending made the server's end a reset.
    expect(held.answer).toMatch(/^HTTP\/1\.1 408 |^\[read ECONNRESET\]/);
  });

  it(`closes connections beyond HTTP_MAX_CONNECTIONS (${MAX_CONNECTIONS}) as they arrive`, async () => {
    const sockets: Socket[] = [];
    /** How long each connection lived, once closed. */
    const lifetimes: number[] = [];
    for (let i = 0; i < MAX_CONNECTIONS * 2; i++) {
      const opened = Date.now();
      const socket = connect(instance.port, '127.0.0.1');
      socket.on('error', () => undefined);
      socket.on('close', () => lifetimes.push(Date.now() - opened));
      await once(socket, 'connect');
      sockets.push(socket);
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
    // Closed well within the headers timeout: only the cap closes a connection that soon.
    const closedAtOnce = lifetimes.filter((ms) => ms < (HEADERS_SECONDS * 1000) / 2);
    expect(closedAtOnce.length).toBeGreaterThanOrEqual(MAX_CONNECTIONS);
    const open = sockets.filter((socket) => !socket.destroyed && socket.readyState === 'open');
    expect(open.length).toBeLessThanOrEqual(MAX_CONNECTIONS);
    for (const socket of sockets) socket.destroy();
    // Once they are gone, the server answers as before.
    await new Promise((resolve) => setTimeout(resolve, 100));
    const response = await fetch(`${instance.url}/healthz`);
    expect(response.status).toBe(200);
  });
});
