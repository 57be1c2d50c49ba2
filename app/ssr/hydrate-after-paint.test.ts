import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { describe, expect, it } from 'vitest';
import { holdHydration, hydrateAfterFirstPaint, hydrationLoader } from './hydrate-after-paint.ts';
import { earlyClickScript } from './replay-early-clicks.ts';

const page =
  '<html><head><link rel="modulepreload" fetchpriority="low" href="/assets/a.js"/>' +
  '<link rel="stylesheet" href="/assets/root.css"/></head><body><main>Hi</main>' +
  '<script>window.ctx={}</script><script type="module" async="">import("/assets/entry.js");</script>' +
  '<script>window.ctx.done=1</script></body></html>';

describe('holdHydration', () => {
  it('drops the module preloads and turns the module script into an inert block', () => {
    const out = holdHydration(page);
    expect(out).not.toContain('modulepreload');
    expect(out).not.toContain('<script type="module"');
    expect(out).toContain(
      '<script type="text/x-hydrate-after-paint" id="hydrate">import("/assets/entry.js");</script>',
    );
    expect(out).toContain('<link rel="stylesheet" href="/assets/root.css"/>');
  });

  it('puts the loader last in the body, after the scripts that feed the router', () => {
    const out = holdHydration(page);
    expect(out.endsWith(`<script>${hydrationLoader}</script></body></html>`)).toBe(true);
    expect(out.indexOf('window.ctx.done=1')).toBeLessThan(out.indexOf(hydrationLoader));
  });

  it('starts the held text on first contentful paint, with a timer as the fallback', () => {
    expect(hydrationLoader).toContain('getElementById("hydrate")');
    expect(hydrationLoader).toContain('"first-contentful-paint"');
    expect(hydrationLoader).toContain('setTimeout(start,3000)');
    expect(() => new Function(hydrationLoader)).not.toThrow();
  });

  it('keeps the render’s mark on the held block and puts it on the loader', () => {
    const marked = page.replace(
      '<script type="module" async="">',
      '<script nonce="m4rk" type="module" async="">',
    );
    const out = holdHydration(marked, 'm4rk');
    expect(out).toContain(
      '<script nonce="m4rk" type="text/x-hydrate-after-paint" id="hydrate">import("/assets/entry.js");</script>',
    );
    expect(out).toContain(`<script nonce="m4rk">${hydrationLoader}</script></body>`);
  });

  it('keeps early clicks from the start of the head, after the charset, with the mark', () => {
    const withCharset = page.replace('<head>', '<head><meta charSet="utf-8"/>');
    const out = holdHydration(withCharset, 'm4rk');
    expect(out).toContain(
      `<head><meta charSet="utf-8"/><script nonce="m4rk">${earlyClickScript}</script><link`,
    );
    expect(holdHydration(page)).toContain(`<head><script>${earlyClickScript}</script><link`);
    expect(() => new Function(earlyClickScript)).not.toThrow();
  });

  it('leaves a document without React Router’s module script alone', () => {
    const plain = '<html><body><link rel="modulepreload" href="/x.js"/></body></html>';
    expect(holdHydration(plain)).toBe(plain);
  });
});

describe('hydrateAfterFirstPaint', () => {
  it('gives the same document however the stream is cut, multi-byte characters included', async () => {
    const withUmlaut = page.replace('Hi', 'Grüße – “quoted”');
    const bytes = Buffer.from(withUmlaut, 'utf8');
    for (const size of [1, 2, 3, 7, 64]) {
      const chunks: Buffer[] = [];
      for (let at = 0; at < bytes.length; at += size) chunks.push(bytes.subarray(at, at + size));
      const out = await text(Readable.from(chunks).pipe(hydrateAfterFirstPaint()));
      expect(out).toBe(holdHydration(withUmlaut));
    }
  });
});
