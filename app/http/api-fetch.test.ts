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

  it('asks the token endpoint first when the browser has no token cookie yet', async () => {
    const calls: string[] = [];
    const sent: Array<string | null> = [];
    vi.stubGlobal('document', { cookie: 'other=1' });
    vi.stubGlobal('fetch', (url: string, init: RequestInit) => {
      calls.push(url);
      sent.push(new Headers(init.headers).get('X-XSRF-TOKEN'));
      const body = url === '/api/csrf-token' ? '{"token":"fresh"}' : '{}';
      return Promise.resolve(new Response(body));
    });
    await apiFetch('/api/submitContactForm', { method: 'POST' });
    expect(calls).toEqual(['/api/csrf-token', '/api/submitContactForm']);
    expect(sent[1]).toBe('fresh');
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
