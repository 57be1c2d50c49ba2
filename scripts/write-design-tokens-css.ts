import { writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { designTokensCss } from '../shared/design-tokens.ts';

/**
 * Writes the site's CSS custom properties (`app/styles/tokens.css`) from the design tokens
 * (decision 172). `shared/design-tokens.test.ts` fails while the file differs from the module.
 * Usage: node scripts/write-design-tokens-css.ts
 */
export const tokensCssPath = fileURLToPath(new URL('../app/styles/tokens.css', import.meta.url));

if (import.meta.main) {
  await writeFile(tokensCssPath, designTokensCss());
  console.log('write-design-tokens-css: wrote app/styles/tokens.css');
}
