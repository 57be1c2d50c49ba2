import { afterEach, describe, expect, it, vi } from 'vitest';
import { apiFetch, readCookie, readErrorCode } from './api-fetch.ts';

describe('readCookie', () => {
  it('finds a cookie among several and decodes it', () => {
    expect(readCookie('XSRF-TOKEN', 'a=1; XSRF-TOKEN=ab%3Dc; b=2')).toBe('ab=c');
    expect(readCookie('missing', 'a=1')).toBeUndefined();
  });
});

describe('apiFetch', () => {
  afterEach(() => vi.unstubAllGlobals());

  function stub(cookie: string) {
    const calls: Array<{ url: string; headers: Headers }> = [];
    vi.stubGlobal('document', { cookie });
    vi.stubGlobal('fetch', (url: string, init: RequestInit) => {
      calls.push({ url, headers: new Headers(init.headers) });
      return Promise.resolve(new Response('{}'));
    });
    return calls;
  }

  it('adds the CSRF header to relative unsafe requests only', async () => {
    const calls = stub('XSRF-TOKEN=tok');
    await apiFetch('/api/submitContactForm', { method: 'POST' });
    await apiFetch('/api/releases');
    await apiFetch('https://elsewhere.example/x', { method: 'POST' });
    await apiFetch('//elsewhere.example/x', { method: 'POST' });
    expect(calls.map((call) => call.headers.get('X-XSRF-TOKEN'))).toEqual([
      'tok',
      null,
      null,
      null,
    ]);
  });

  it('treats the configured account-service origin as ours', async () => {
    const calls = stub('XSRF-TOKEN=tok');
    await apiFetch('https://account.orgsmith.io/account/v1/manage', {
      method: 'POST',
      trustedBase: 'https://account.orgsmith.io',
    });
    expect(calls[0]?.headers.get('X-XSRF-TOKEN')).toBe('tok');
  });
});

describe('readErrorCode', () => {
  it('reads the Error field and tolerates other bodies', async () => {
    expect(await readErrorCode(new Response('{"Error":"ReferralCodeInvalid"}'))).toBe(
      'ReferralCodeInvalid',
    );
    expect(await readErrorCode(new Response('{"message":"x"}'))).toBeUndefined();
    expect(await readErrorCode(new Response('<html>'))).toBeUndefined();
  });
});
