import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { keepDataWhileDialogsChange } from './revalidation.ts';

const routesDir = join(import.meta.dirname, '../../routes');

function routeFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? routeFiles(join(dir, entry.name))
      : /\.tsx$/.test(entry.name)
        ? [join(dir, entry.name)]
        : [],
  );
}

const url = (path: string) => new URL(path, 'https://orgsmith.test');

describe('keepDataWhileDialogsChange', () => {
  const args = (from: string, to: string, formMethod?: 'POST') =>
    ({
      currentUrl: url(from),
      nextUrl: url(to),
      formMethod,
      defaultShouldRevalidate: true,
    }) as Parameters<typeof keepDataWhileDialogsChange>[0];

  it('keeps the data when only a dialog opens or closes, revalidates otherwise', () => {
    expect(keepDataWhileDialogsChange(args('/', '/?modal=trial'))).toBe(false);
    expect(keepDataWhileDialogsChange(args('/?modal=trial', '/'))).toBe(false);
    expect(keepDataWhileDialogsChange(args('/', '/download'))).toBe(true);
    expect(keepDataWhileDialogsChange(args('/?modal=trial', '/', 'POST'))).toBe(true);
  });

  it('is the shouldRevalidate of every page route with a loader', () => {
    // The operator console (routes/console/) has no site dialogs and shares no code with the
    // site's pages (decision 226): its routes keep React Router's own revalidation.
    const sitePages = routeFiles(routesDir).filter(
      (file) => !file.includes(`${join('routes', 'console')}/`),
    );
    const pagesWithLoader = sitePages.filter((file) => {
      const source = readFileSync(file, 'utf8');
      return (
        /export (async )?function loader/.test(source) && /export default function/.test(source)
      );
    });
    expect(pagesWithLoader.length).toBeGreaterThan(5);
    const missing = pagesWithLoader.filter(
      (file) =>
        !readFileSync(file, 'utf8').includes(
          'export const shouldRevalidate = keepDataWhileDialogsChange;',
        ),
    );
    expect(missing).toEqual([]);
  });
});
