import { readFileSync } from 'node:fs';
import path from 'node:path';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { color } from '#shared/design-tokens.ts';
import { HowItWorksDiagram } from './HowItWorksDiagram.tsx';
import { PromotionDiagram } from './PromotionDiagram.tsx';

const directory = path.dirname(new URL(import.meta.url).pathname);
const tokenColours = new Set(Object.values(color).map((value) => value.toLowerCase()));

const diagrams = [
  { name: 'how it works', element: <HowItWorksDiagram />, file: 'how-it-works.svg' },
  { name: 'promotion', element: <PromotionDiagram />, file: 'promotion.svg' },
];

describe.each(diagrams)('the $name diagram', ({ element, file }) => {
  const svg = readFileSync(path.join(directory, file), 'utf8');
  const img = renderToStaticMarkup(element);
  const attribute = (name: string) => new RegExp(`\\s${name}="([^"]*)"`).exec(img)?.[1];

  it('is an image of its SVG file, described for people who cannot see it', () => {
    // The build emits it as a hashed file; the test transform inlines it as a data: URL.
    const src = attribute('src') ?? '';
    const inlined = /^data:image\/svg\+xml;base64,(.+)$/.exec(src)?.[1];
    if (inlined) expect(Buffer.from(inlined, 'base64').toString()).toBe(svg);
    else expect(src).toContain(file.replace('.svg', ''));
    expect(attribute('alt')?.length).toBeGreaterThan(80);
    expect(attribute('loading')).toBe('lazy');
  });

  it('reserves the SVG’s own size, so nothing shifts when it loads', () => {
    const viewBox = /viewBox="0 0 (\d+) (\d+)"/.exec(svg);
    expect(viewBox).not.toBeNull();
    expect(attribute('width')).toBe(viewBox?.[1]);
    expect(attribute('height')).toBe(viewBox?.[2]);
  });

  it('uses only the design tokens’ colours (an SVG image cannot read the CSS variables)', () => {
    const colours = [...svg.matchAll(/#[0-9a-f]{3,8}\b/gi)].map((match) => match[0].toLowerCase());
    expect(colours.length).toBeGreaterThan(3);
    for (const colour of colours) expect(tokenColours, colour).toContain(colour);
  });
});
