import { createServer } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startViesFake, type ViesFake } from '#tests/support/vies-fake.ts';
import { confirmVatId } from './confirm-vat-id.ts';
import { createViesClient } from './vies-client.ts';

/** A server that answers every request with `status` and `body`, or never when `body` is null. */
async function answering(status: number, body: unknown) {
  const server = createServer((_req, res) => {
    if (body === null) return;
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(typeof body === 'string' ? body : JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('not listening');
  return {
    url: `http://127.0.0.1:${address.port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe('the VIES client', () => {
  let fake: ViesFake;
  beforeAll(async () => {
    fake = await startViesFake();
  });
  afterAll(() => fake.close());

  it('sends a qualified request as the seller and reads the consultation number', async () => {
    const client = createViesClient({ baseUrl: `${fake.url}/` });
    const answer = await client.checkVatNumber('FR40303265045');
    expect(answer).toEqual({
      status: 'valid',
      consultationNumber: fake.consultations.get('FR40303265045'),
      name: 'EXEMPLE SA',
      address: '1 RUE DE RIVOLI\n75001 PARIS',
    });
    expect(fake.requests.at(-1)).toEqual({
      countryCode: 'FR',
      vatNumber: '40303265045',
      requesterMemberStateCode: 'DE',
      requesterNumber: '318765432',
    });
  });

  it('says invalid for a number VIES does not know, and unavailable when the state is down', async () => {
    const client = createViesClient({ baseUrl: fake.url });
    expect(await client.checkVatNumber('FR23334175221')).toEqual({ status: 'invalid' });
    fake.setUnavailable('FR');
    try {
      expect(await client.checkVatNumber('FR40303265045')).toEqual({
        status: 'unavailable',
        reason: 'MS_UNAVAILABLE',
      });
    } finally {
      fake.setUnavailable('FR', false);
    }
  });

  it('takes no answer for a yes: a timeout, a refused connection, junk, a valid without number', async () => {
    const silent = await answering(200, null);
    const junk = await answering(200, '<html>maintenance</html>');
    const unnumbered = await answering(200, { valid: true, userError: 'VALID' });
    const stateDown = await answering(200, { valid: false, userError: 'MS_MAX_CONCURRENT_REQ' });
    try {
      const started = Date.now();
      const timedOut = await createViesClient({
        baseUrl: silent.url,
        timeoutMs: 200,
      }).checkVatNumber('FR40303265045');
      expect(timedOut).toEqual({ status: 'unavailable', reason: 'TimeoutError' });
      expect(Date.now() - started).toBeLessThan(5_000);
      for (const [url, reason] of [
        [junk.url, 'SyntaxError'],
        [unnumbered.url, 'no consultation number'],
        [stateDown.url, 'MS_MAX_CONCURRENT_REQ'],
        ['http://127.0.0.1:9', 'TypeError'],
      ] as const) {
        expect(
          await createViesClient({ baseUrl: url }).checkVatNumber('FR40303265045'),
          url,
        ).toEqual({
          status: 'unavailable',
          reason,
        });
      }
    } finally {
      await Promise.all([silent.close(), junk.close(), unnumbered.close(), stateDown.close()]);
    }
  });
});

describe('confirmVatId', () => {
  let fake: ViesFake;
  beforeAll(async () => {
    fake = await startViesFake();
  });
  afterAll(() => fake.close());
  const deps = () => ({
    vies: createViesClient({ baseUrl: fake.url }),
    clock: () => new Date('2026-03-01T23:30:00Z'),
  });

  it('keeps VIES’s consultation number with the seller’s calendar day', async () => {
    expect(await confirmVatId(deps(), { country: 'AT', vatId: 'ATU13585627' })).toEqual({
      vatId: 'ATU13585627',
      by: 'vies',
      consultationNumber: fake.consultations.get('ATU13585627'),
      // 23:30 UTC is already the next day in Hamburg.
      confirmedOn: '2026-03-02',
      name: 'BEISPIEL GMBH',
      address: 'STEPHANSPLATZ 1\nAT-1010 WIEN',
    });
  });

  it('never asks VIES where no reverse charge can be: wrong check digits, Germany, outside the EU', async () => {
    const before = fake.requests.length;
    for (const buyer of [
      { country: 'FR', vatId: 'FR00000000000' },
      { country: 'AT', vatId: 'ATU00000000' },
      { country: 'DE', vatId: 'DE136695976' },
      { country: 'US', vatId: '123456789' },
      { country: 'FR', vatId: null },
    ]) {
      expect(await confirmVatId(deps(), buyer), buyer.vatId ?? '-').toBeNull();
    }
    expect(fake.requests.length).toBe(before);
  });

  it('gives no confirmation when VIES says invalid', async () => {
    expect(await confirmVatId(deps(), { country: 'FR', vatId: 'FR23334175221' })).toBeNull();
  });
});
