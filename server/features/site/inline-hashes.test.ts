import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ownInlineCode } from './inline-hashes.ts';

const hash = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;
const mark = 'Zm9yIHRoaXMgcmVuZGVyIG9ubHk';
const ours = ` nonce="${mark}"`;

describe('ownInlineCode', () => {
  it('hashes the marked scripts and the style elements exactly as sent, once each', () => {
    const html = [
      '<style>body{color:red}</style>',
      `<script${ours}>window.a = 1;</script>`,
      `<script${ours} type="module">import "/assets/x.js";</script>`,
      `<script${ours}>window.a = 1;</script>`,
    ].join('');
    expect(ownInlineCode(html, mark).hashes).toEqual({
      scripts: [hash('window.a = 1;'), hash('import "/assets/x.js";')],
      styles: [hash('body{color:red}')],
    });
  });

  it('leaves out scripts without the render’s mark: they came from somewhere else', () => {
    const html =
      `<main><p>Release notes</p><script>alert(document.cookie)</script></main>` +
      `<script nonce="guessed-but-wrong-0123456789">steal()</script>` +
      `<div title=' nonce="${mark.slice(1)}"'></div><script${ours}>window.ours = 1;</script>`;
    expect(ownInlineCode(html, mark).hashes.scripts).toEqual([hash('window.ours = 1;')]);
  });

  it('removes the marks, so every render of a page gives the same bytes', () => {
    const html = `<head><link rel="stylesheet"${ours} href="/a.css"/></head><script${ours}>x()</script>`;
    const { html: served } = ownInlineCode(html, mark);
    expect(served).toBe('<head><link rel="stylesheet" href="/a.css"/></head><script>x()</script>');
    expect(
      ownInlineCode(
        html.replaceAll(mark, 'YW5vdGhlciByZW5kZXIncyBtYXJr'),
        'YW5vdGhlciByZW5kZXIncyBtYXJr',
      ).html,
    ).toBe(served);
  });

  it('leaves out external scripts and data blocks, which are not inline code', () => {
    const html =
      `<script${ours} src="/assets/a.js"></script>` +
      `<script${ours} type="application/ld+json">{"@type":"Product"}</script>` +
      `<script async=""${ours} src="/x.js"></script>`;
    expect(ownInlineCode(html, mark).hashes).toEqual({ scripts: [], styles: [] });
  });

  it('hashes the held hydration block, whose text the loader runs as a module', () => {
    const html =
      `<script${ours} type="text/x-hydrate-after-paint" id="hydrate">import("/assets/e.js");</script>` +
      `<script${ours} type="application/json">{"a":1}</script>`;
    expect(ownInlineCode(html, mark).hashes.scripts).toEqual([hash('import("/assets/e.js");')]);
  });

  it('refuses a mark that could be guessed or would need escaping', () => {
    expect(() => ownInlineCode('<p></p>', '')).toThrow();
    expect(() => ownInlineCode('<p></p>', 'short')).toThrow();
    expect(() => ownInlineCode('<p></p>', 'a"b c=d 0123456789abcdef')).toThrow();
  });
});
