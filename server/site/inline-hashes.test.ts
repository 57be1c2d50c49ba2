import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { inlineHashes } from './inline-hashes.ts';

const hash = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

describe('inlineHashes', () => {
  it('hashes inline scripts and style elements exactly as sent, once each', () => {
    const html = [
      '<style>body{color:red}</style>',
      '<script>window.a = 1;</script>',
      '<script type="module">import "/assets/x.js";</script>',
      '<script>window.a = 1;</script>',
    ].join('');
    expect(inlineHashes(html)).toEqual({
      scripts: [hash('window.a = 1;'), hash('import "/assets/x.js";')],
      styles: [hash('body{color:red}')],
    });
  });

  it('leaves out external scripts and data blocks, which are not inline code', () => {
    const html =
      '<script src="/assets/a.js"></script>' +
      '<script type="application/ld+json">{"@type":"Product"}</script>' +
      '<script async="" src="/x.js"></script>';
    expect(inlineHashes(html)).toEqual({ scripts: [], styles: [] });
  });

  it('hashes the held hydration block, whose text the loader runs as a module', () => {
    const html =
      '<script type="text/x-hydrate-after-paint" id="hydrate">import("/assets/e.js");</script>' +
      '<script type="application/json">{"a":1}</script>';
    expect(inlineHashes(html).scripts).toEqual([hash('import("/assets/e.js");')]);
  });
});
