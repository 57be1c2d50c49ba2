import { describe, expect, it } from 'vitest';
import { pathsInSitemap } from './site-routes.ts';

describe('pathsInSitemap', () => {
  it('lists the paths on our own origin, for warming the page store', () => {
    const xml = `<?xml version="1.0"?><urlset>
      <url><loc>https://orgsmith.io/</loc></url>
      <url><loc> https://orgsmith.io/pricing </loc></url>
      <url><loc>https://elsewhere.example/x</loc></url>
    </urlset>`;
    expect(pathsInSitemap(xml, 'https://orgsmith.io')).toEqual(['/', '/pricing']);
  });
});
