import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

/**
 * Packages a started server loads only when a request needs them (decision 135): each costs tens
 * of MB once loaded, and most instances never use them. The admin CLI's packages must never load
 * in the server at all.
 */
const LOADED_ON_FIRST_USE = [
  'stripe', // only when Stripe is the payment provider
  'pdfkit', // a quote's first PDF
  'fontkit',
  'nodemailer', // the first e-mail
  '@scalar/hono-api-reference', // the API reference page's first request
  '@electric-sql/pglite', // only without DATABASE_URL, when the database opens
  '@cyclonedx/cyclonedx-library', // the admin CLI's SBOM validation
  'ajv',
  '@redocly/openapi-core', // `npm run lint:openapi`
];

/** Imports every module the production entry imports statically and lists what got loaded. */
const probe = `
import { registerHooks } from 'node:module';
const loaded = [];
registerHooks({
  load(url, context, nextLoad) {
    loaded.push(url);
    return nextLoad(url, context);
  },
});
await import('./server/app.ts');
await import('./server/runtime.ts');
await import('./server/env.ts');
await import('./server/platform/logger.ts');
await import('./server/metrics/metrics-listener.ts');
process.stdout.write(JSON.stringify(loaded));
`;

describe('the server at start', () => {
  it('loads no package that only some requests or the admin CLI need', () => {
    const output = execFileSync(process.execPath, ['--input-type=module', '-e', probe], {
      encoding: 'utf8',
      env: { ...process.env, NODE_ENV: 'production' },
    });
    const loaded = z.array(z.string()).parse(JSON.parse(output));
    const packages = new Set(
      loaded.flatMap((url) => /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url)?.[1] ?? []),
    );
    // The probe itself works: the server's own packages show up.
    expect(packages).toContain('hono');
    expect(packages).toContain('drizzle-orm');
    expect(LOADED_ON_FIRST_USE.filter((name) => packages.has(name))).toEqual([]);
  });
});
