import { createServer, type Server } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { parseEnv } from '#server/env.ts';
import {
  consoleHostsOf,
  listenHostsOf,
  listenOn,
  listeningMessage,
  type Listening,
} from './listen.ts';

const opened: Listening[] = [];
afterEach(async () => {
  for (const listening of opened.splice(0)) {
    await Promise.all(listening.servers.map((server) => new Promise((done) => server.close(done))));
  }
});

const answering = (): Server => createServer((_request, response) => response.end('ok'));

describe('where the server listens (decision 156)', () => {
  it('is loopback only without keys, HOST when set, every interface otherwise', () => {
    expect(listenHostsOf(parseEnv({}))).toEqual(['127.0.0.1', '::1']);
    expect(listenHostsOf(parseEnv({ HOST: 'localhost' }))).toEqual(['127.0.0.1', '::1']);
    expect(listenHostsOf(parseEnv({ HOST: '::1' }))).toEqual(['::1']);
    expect(listenHostsOf(parseEnv({ HOST: '0.0.0.0', PAYMENT_PROVIDER: 'local' }))).toEqual([
      '0.0.0.0',
    ]);
    expect(listenHostsOf(parseEnv({ PAYMENT_PROVIDER: 'local' }))).toEqual([undefined]);
    expect(
      listenHostsOf(parseEnv({ STRIPE_SECRET_KEY: 'sk_test_x', STRIPE_WEBHOOK_SECRET: 'whsec_x' })),
    ).toEqual([undefined]);
  });

  it('puts the operator console on loopback unless CONSOLE_HOST says otherwise (decision 226)', () => {
    // Whatever HOST and the payment keys say: the console is private by default.
    expect(consoleHostsOf(parseEnv({ HOST: '0.0.0.0', PAYMENT_PROVIDER: 'local' }))).toEqual([
      '127.0.0.1',
      '::1',
    ]);
    expect(consoleHostsOf(parseEnv({ CONSOLE_HOST: 'localhost' }))).toEqual(['127.0.0.1', '::1']);
    expect(consoleHostsOf(parseEnv({ CONSOLE_HOST: '10.0.0.5' }))).toEqual(['10.0.0.5']);
  });

  it('binds both loopback addresses on one port, and says why in the start line', async () => {
    const listening = await listenOn(['127.0.0.1', '::1'], 0, answering);
    opened.push(listening);
    expect(listening.addresses[0]).toBe('127.0.0.1');
    expect(listening.port).toBeGreaterThan(0);
    for (const address of listening.addresses) {
      const host = address.includes(':') ? `[${address}]` : address;
      expect(await (await fetch(`http://${host}:${listening.port}/`)).text()).toBe('ok');
    }
    expect(listeningMessage(listening, parseEnv({}))).toMatch(
      /^listening on loopback only \(127\.0\.0\.1( and ::1)?\): payments are test payments/,
    );
  });

  it('leaves out an address this machine lacks when another one is bound', async () => {
    // 192.0.2.0/24 is for documentation: no machine of this test run has 192.0.2.254.
    const listening = await listenOn(['127.0.0.1', '192.0.2.254'], 0, answering);
    opened.push(listening);
    expect(listening.addresses).toEqual(['127.0.0.1']);
    await expect(listenOn(['192.0.2.254'], 0, answering)).rejects.toThrow(/EADDRNOTAVAIL/);
  });

  it('refuses a port in use, closing what it had bound', async () => {
    const taken = await listenOn(['127.0.0.1'], 0, answering);
    opened.push(taken);
    // Linux answers on all of 127.0.0.0/8: 127.0.0.2 is free on that port, 127.0.0.1 is not.
    await expect(listenOn(['127.0.0.2', '127.0.0.1'], taken.port, answering)).rejects.toThrow(
      /EADDRINUSE/,
    );
    const again = await listenOn(['127.0.0.2'], taken.port, answering);
    opened.push(again);
    expect(again.addresses).toEqual(['127.0.0.2']);
  });
});
