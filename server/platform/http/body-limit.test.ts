import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { announcesBody, bodyLimits } from './body-limit.ts';
import type { AppEnv } from './types.ts';

describe('announcesBody', () => {
  it('is a length above zero or any transfer coding', () => {
    expect(announcesBody({ contentLength: '1', transferEncoding: undefined })).toBe(true);
    expect(announcesBody({ contentLength: undefined, transferEncoding: 'chunked' })).toBe(true);
    expect(announcesBody({ contentLength: '0', transferEncoding: 'chunked' })).toBe(true);
  });

  it('is not a missing or zero length', () => {
    expect(announcesBody({ contentLength: undefined, transferEncoding: undefined })).toBe(false);
    expect(announcesBody({ contentLength: '0', transferEncoding: undefined })).toBe(false);
    expect(announcesBody({ contentLength: '000', transferEncoding: undefined })).toBe(false);
  });
});

describe('bodyLimits', () => {
  function appWithLimit(limit: number) {
    const reads: string[] = [];
    const app = new Hono<AppEnv>();
    app.use(bodyLimits({ limitFor: () => limit }));
    app.post('/', async (c) => {
      reads.push(await c.req.text());
      return c.text('read');
    });
    return { app, reads };
  }

  it('refuses a declared length above the limit from the header alone, with 413 JSON', async () => {
    const { app, reads } = appWithLimit(1024);
    const response = await app.request('/', {
      method: 'POST',
      headers: { 'content-length': '2048' },
      body: 'x'.repeat(2048),
    });
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({
      Error: 'PayloadTooLarge',
      message: 'The request body is larger than 1 KiB.',
    });
    expect(reads).toEqual([]);
  });

  it('lets a body at the limit through to the route, which reads it whole', async () => {
    const { app, reads } = appWithLimit(1024);
    const response = await app.request('/', {
      method: 'POST',
      headers: { 'content-length': '1024' },
      body: 'y'.repeat(1024),
    });
    expect(response.status).toBe(200);
    expect(reads).toEqual(['y'.repeat(1024)]);
  });

  it('counts a chunked body as it arrives and refuses it once it passes the limit', async () => {
    const { app, reads } = appWithLimit(1024);
    const chunks = [new Uint8Array(600), new Uint8Array(600)];
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        const next = chunks.shift();
        if (next) controller.enqueue(next);
        else controller.close();
      },
    });
    // Streaming bodies need `duplex`, which the DOM typings of RequestInit do not list yet.
    const init = {
      method: 'POST',
      headers: { 'transfer-encoding': 'chunked' },
      body,
      duplex: 'half',
    };
    const response = await app.request('/', init);
    expect(response.status).toBe(413);
    expect(reads).toEqual([]);
  });
});
