import { eq } from 'drizzle-orm';
import { runAdmin } from '#server/admin/run-admin.ts';
import type { DatabaseHandle } from '#server/platform/db/client.ts';
import { licences } from '#server/platform/db/schema.ts';
import { issueLicence, type IssueLicenceInput } from '#server/licensing/licences/issue-licence.ts';
import type { Licence } from '#server/licensing/licences/licence-repository.ts';
import { siteConfig } from '#shared/site-config.ts';
import type { TestApp } from './test-app.ts';

let counter = 0;

/** Issues a real licence through the account service's own code; returns it and its key. */
export async function createLicence(
  t: TestApp,
  input: Partial<IssueLicenceInput> = {},
): Promise<{ licence: Licence; key: string }> {
  counter += 1;
  const result = await t.deps.database.db.transaction((tx) =>
    issueLicence(tx, t.deps.secretKey, {
      type: 'Paid',
      edition: 'Pro',
      quantity: 4,
      email: `customer${counter}-${Date.now()}@example.com`,
      productId: siteConfig.productId,
      expiresAt: new Date(t.deps.clock().getTime() + 90 * 24 * 3600 * 1000),
      addressRule: 'any',
      ...input,
    }),
  );
  if (!result.ok) throw new Error(`licence not issued: ${result.code}`);
  return { licence: result.licence, key: result.key };
}

/** Puts a licence into a lifecycle state directly in the database (as the lifecycle jobs do). */
export async function updateLicence(
  t: TestApp,
  id: string,
  values: Partial<typeof licences.$inferInsert>,
): Promise<void> {
  await t.deps.database.db.update(licences).set(values).where(eq(licences.id, id));
}

export function postJson(
  t: TestApp,
  path: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<Response> {
  return Promise.resolve(
    t.app.request(path, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...headers },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    }),
  );
}

/** Distinct, valid 15-character Salesforce org ids. */
export function orgId(n: number): string {
  return `00D5g00000${String(n).padStart(5, '0')}`;
}

/** An operator command run against the test app's database, with the app's secret and clock. */
export function runAdminOn(
  t: TestApp,
  ...argv: string[]
): Promise<{ code: number; out: string; err: string }> {
  return runAdminWith(t, {}, ...argv);
}

/** `runAdminOn` with more of the environment (e.g. the Stripe keys of a Stripe test app). */
export async function runAdminWith(
  t: TestApp,
  env: Record<string, string>,
  ...argv: string[]
): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const handle: DatabaseHandle = { ...t.deps.database, close: async () => undefined };
  const code = await runAdmin(argv, {
    io: { out: (line) => out.push(line), err: (line) => err.push(line) },
    environment: {
      LOG_LEVEL: 'silent',
      SECRET_KEY: t.deps.secretKey,
      PUBLIC_BASE_URL: t.deps.env.PUBLIC_BASE_URL,
      LICENSE_VALIDATION_CACHE_SECONDS: String(t.deps.env.LICENSE_VALIDATION_CACHE_SECONDS),
      ...env,
    },
    openDatabase: async () => handle,
    now: () => t.deps.clock(),
  });
  return { code, out: out.join('\n'), err: err.join('\n') };
}
