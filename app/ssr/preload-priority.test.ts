import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { lowerModulePreloadPriority } from './preload-priority.ts';

const html =
  '<head><link rel="modulepreload" href="/assets/a.js" nonce="n"/>' +
  '<link rel="stylesheet" href="/assets/root.css"/>' +
  '<link rel="modulepreload" href="/assets/b.js"/></head><body>rel="modulepreload"</body>';
const expected =
  '<head><link rel="stylesheet" href="/assets/root.css"/>' +
  '<link rel="modulepreload" fetchpriority="low" href="/assets/a.js" nonce="n"/>' +
  '<link rel="modulepreload" fetchpriority="low" href="/assets/b.js"/></head><body>rel="modulepreload"</body>';

function run(chunks: string[]): Promise<string> {
  return text(Readable.from(chunks).pipe(lowerModulePreloadPriority()));
}

describe('lowerModulePreloadPriority', () => {
  it('marks every module preload link and nothing else', async () => {
    expect(await run([html])).toBe(expected);
  });

  it('moves the head’s preloads behind its stylesheets, keeping everything else in order', async () => {
    const page =
      '<html><head><meta charSet="utf-8"/><link rel="modulepreload" href="/a.js"/>' +
      '<title>T</title><link rel="stylesheet" href="/s.css"/></head>' +
      '<body><link rel="modulepreload" href="/late.js"/></body></html>';
    expect(await run([page])).toBe(
      '<html><head><meta charSet="utf-8"/><title>T</title><link rel="stylesheet" href="/s.css"/>' +
        '<link rel="modulepreload" fetchpriority="low" href="/a.js"/></head>' +
        '<body><link rel="modulepreload" fetchpriority="low" href="/late.js"/></body></html>',
    );
  });

  it('passes on a document whose head never ends once it is too long to hold', async () => {
    const long = `<head>${'<meta name="x" content="y"/>'.repeat(3000)}`;
    const out = await run([long, '<link rel="modulepreload" href="/x.js"/>']);
    expect(out).toBe(`${long}<link rel="modulepreload" fetchpriority="low" href="/x.js"/>`);
  });

  it('gives the same result however the HTML is split into chunks', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(fc.integer({ min: 1, max: html.length - 1 }), { maxLength: 12 }),
        async (cuts) => {
          const points = [0, ...cuts.sort((a, b) => a - b), html.length];
          const chunks = points.slice(1).map((end, i) => html.slice(points[i], end));
          expect(await run(chunks)).toBe(expected);
        },
      ),
    );
  });

  it('keeps multi-byte characters whole when a chunk ends inside one', async () => {
    const bytes = Buffer.from('<p>Speicherstraße 14</p><link rel="modulepreload" href="/x.js"/>');
    const split = bytes.indexOf(0x9f); // the second byte of "ß"
    const out = await text(
      Readable.from([bytes.subarray(0, split), bytes.subarray(split)]).pipe(
        lowerModulePreloadPriority(),
      ),
    );
    expect(out).toBe(
      '<p>Speicherstraße 14</p><link rel="modulepreload" fetchpriority="low" href="/x.js"/>',
    );
  });

  it('passes through documents without preloads unchanged', async () => {
    expect(await run(['<p>rel="module', 'preload"</p>', '<link rel="modul'])).toBe(
      '<p>rel="modulepreload"</p><link rel="modul',
    );
  });
});
