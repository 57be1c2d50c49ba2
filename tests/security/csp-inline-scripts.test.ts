import { createHash } from 'node:crypto';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ServerBuild } from 'react-router';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseTargets } from '../support/databases.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';

/**
 * Issue 17, item 9: the CSP hashed every inline script found in the final HTML, so a script that
 * reached a page's content (an unescaped release note, a compromised content module) was allowed
 * to run. Only the scripts our render emits may be hashed (decision 120). The production build
 * (`npm run build`) renders the pages; a wrapper injects a script into their content.
 */
const injected = 'window.injected = document.cookie;';
const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

/** The real build, with a script slipped into every page's content after React rendered it. */
async function buildWithInjectedScript(): Promise<ServerBuild> {
  const build: ServerBuild = await import(
    pathToFileURL(path.resolve('build/server/index.js')).href
  );
  const render = build.entry.module.default;
  return {
    ...build,
    entry: {
      ...build.entry,
      module: {
        ...build.entry.module,
        async default(...args: Parameters<typeof render>) {
          const response = await render(...args);
          const html = await response.text();
          return new Response(html.replace('<main', `<script>${injected}</script><main`), {
            status: response.status,
            headers: response.headers,
          });
        },
      },
    },
  };
}

function inlineScripts(html: string): string[] {
  return [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)]
    .filter(([, attributes = '']) => !/\bsrc=|application\/(ld\+)?json/.test(attributes))
    .map(([, , body = '']) => body);
}

describe('the CSP hashes only the inline scripts our render emits', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(
      databaseTargets[0] ?? { name: 'pglite', open: () => Promise.reject() },
      {
        options: { serverBuild: await buildWithInjectedScript() },
      },
    );
  });
  afterAll(() => t?.close());

  const pages = [
    '/',
    '/?modal=contact',
    '/pricing?size=10',
    '/no-such-page',
    '/replace-licence-key?token=x',
  ];
  for (const page of pages) {
    it(`leaves a script injected into ${page} out of its CSP, and lists every script of ours`, async () => {
      const res = await t.app.request(page);
      const html = await res.text();
      const csp = res.headers.get('content-security-policy') ?? '';
      expect(html).toContain(`<script>${injected}</script>`);
      expect(csp).not.toContain(sha256(injected));
      const ours = inlineScripts(html).filter((body) => body !== injected);
      expect(ours.length).toBeGreaterThanOrEqual(4);
      for (const body of ours) expect(csp, body.slice(0, 60)).toContain(sha256(body));
      // The marks that told our scripts apart are gone: every visitor gets the same bytes.
      expect(html).not.toMatch(/\bnonce=/);
    });
  }
});
