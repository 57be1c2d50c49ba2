import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { tokensCssPath } from '#scripts/write-design-tokens-css.ts';
import { color, designTokensCss, font, navy, radius } from './design-tokens.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const read = (file: string) => readFile(path.join(root, file), 'utf8');

/** Source files under `dir` (recursively) whose names end in one of `extensions`. */
async function sourceFiles(dir: string, extensions: string[]): Promise<string[]> {
  const entries = await readdir(path.join(root, dir), { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile() && extensions.some((ext) => entry.name.endsWith(ext)))
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)))
    .filter((file) => !/\.test\.tsx?$/.test(file) && !file.includes('/+types/'));
}

describe('design tokens', () => {
  it('are the CSS custom properties of the site: tokens.css is written from the module', async () => {
    expect(
      await readFile(tokensCssPath, 'utf8'),
      'app/styles/tokens.css differs from shared/design-tokens.ts: run node scripts/write-design-tokens-css.ts',
    ).toBe(designTokensCss());
    const globalCss = await read('app/styles/global.css');
    expect(globalCss).toMatch(/^\/\*[^]*?\*\/\n@import '\.\/tokens\.css';\n/);
    // Custom properties are declared once, in tokens.css; the base styles only use them.
    expect(globalCss).not.toMatch(/^\s*--[a-z-]+\s*:/m);
  });

  it('name every property as the components use it', () => {
    const css = designTokensCss();
    expect(css).toContain('  --color-navy-2: #13294b;\n');
    expect(css).toContain('  --color-text-muted: #475569;\n');
    expect(css).toContain('  --font-size-2xl: 1.953rem;\n');
    expect(css).toContain('  --line-height: 1.6;\n');
    expect(css).toContain('  --space-10: 80px;\n');
    expect(css).toContain('  --header-height: 64px;\n');
    expect(css).toContain(`  --font-sans: ${font.sans};\n`);
    expect(css).toContain(`  --radius-lg: ${radius.lg};\n`);
    expect(navy).toBe(color.navy);
  });

  it('are the only copy of the colours: no other source file writes a token colour out', async () => {
    const tokenColours = new Set(Object.values(color).map((value) => value.toLowerCase()));
    const files = [
      ...(await sourceFiles('app', ['.ts', '.tsx', '.css'])),
      ...(await sourceFiles('server', ['.ts', '.tsx'])),
      ...(await sourceFiles('scripts', ['.ts', '.js'])),
    ].filter((file) => file !== path.join('app', 'styles', 'tokens.css'));
    const copies: string[] = [];
    for (const file of files) {
      for (const match of (await read(file)).matchAll(/#[0-9a-fA-F]{6}\b/g)) {
        if (tokenColours.has(match[0].toLowerCase())) copies.push(`${file}: ${match[0]}`);
      }
    }
    expect(copies).toEqual([]);
  });
});
