import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { accessTokens, licenceOrgs, licences } from '#server/platform/db/schema.ts';
import { accessTokenHint, hashAccessToken } from '#server/licensing/access-tokens/access-token.ts';
import { exampleCredentials } from '#server/licensing/cli-flow-examples.ts';
import { hashLicenceKey, licenceKeyHint } from '#server/licensing/licences/licence-key.ts';
import { databaseTargets } from '../support/databases.ts';
import { createLicence } from '../support/licensing.ts';
import { createTestApp, csrfHeaders, type TestApp } from '../support/test-app.ts';

/**
 * Issue 27 item 7: every example request of the API reference, sent as a CLI author would paste
 * it, gets the documented answer — a documented success status and a body shaped like one of
 * that status's examples. The licence and token the examples name exist here, as they would for
 * the author with their own; nothing else is prepared per example.
 */

const exampleSchema = z.object({ summary: z.string(), value: z.unknown() });
const mediaSchema = z.object({ examples: z.record(z.string(), exampleSchema).optional() });
const operationSchema = z.object({
  operationId: z.string(),
  security: z.array(z.record(z.string(), z.array(z.string()))).optional(),
  requestBody: z.object({ content: z.record(z.string(), mediaSchema) }).optional(),
  responses: z.record(
    z.string(),
    z.object({ content: z.record(z.string(), mediaSchema).optional() }),
  ),
});
const documentSchema = z.object({
  tags: z.array(z.object({ name: z.string() })),
  paths: z.record(z.string(), z.record(z.string(), operationSchema)),
});

/**
 * Whether two values have the same structure: the same keys and kinds, not the same ids, times
 * and signatures, which vary. A null on either side stands for a nullable field's other state.
 */
function sameShape(documented: unknown, actual: unknown): boolean {
  if (documented === null || actual === null) return true;
  if (Array.isArray(documented) || Array.isArray(actual)) {
    if (!Array.isArray(documented) || !Array.isArray(actual)) return false;
    const [first] = documented;
    return first === undefined || actual.every((item) => sameShape(first, item));
  }
  if (typeof documented === 'object' && typeof actual === 'object') {
    const keys = (value: object) => Object.keys(value).sort().join();
    if (keys(documented) !== keys(actual)) return false;
    const actualEntries = new Map<string, unknown>(Object.entries(actual));
    return Object.entries(documented).every(([key, item]) =>
      sameShape(item, actualEntries.get(key)),
    );
  }
  return typeof documented === typeof actual;
}

/** Facts an answer must repeat exactly when its example states them: what the CLI branches on. */
const exactKeys = new Set(['valid', 'code', 'type', 'edition', 'quantity', 'orgs', 'stacks']);
function exactFacts(value: unknown, path = ''): Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return {};
  return Object.fromEntries(
    Object.entries(value).flatMap(([key, item]) => {
      const at = path ? `${path}.${key}` : key;
      if (exactKeys.has(key) || key === 'features') return [[at, item]];
      return Object.entries(exactFacts(item, at));
    }),
  );
}

interface ExampleCase {
  name: string;
  method: string;
  path: string;
  body: unknown;
  bearer: boolean;
  status: number;
  answers: unknown[];
}

function casesOf(document: z.infer<typeof documentSchema>): ExampleCase[] {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item).flatMap(([method, operation]) => {
      const request = operation.requestBody?.content['application/json']?.examples ?? {};
      const [status, response] =
        Object.entries(operation.responses).find(
          ([code, answer]) =>
            code.startsWith('2') && answer.content?.['application/json']?.examples,
        ) ?? [];
      const answers = Object.values(response?.content?.['application/json']?.examples ?? {});
      const takesBearer = (operation.security ?? []).some((option) => 'accessToken' in option);
      return Object.entries(request).map(([name, example]) => ({
        name: `${method.toUpperCase()} ${path} ${name}`,
        method: method.toUpperCase(),
        path,
        body: example.value,
        // The bearer alternative: an example without a key in the body sends the token.
        bearer:
          takesBearer &&
          typeof example.value === 'object' &&
          example.value !== null &&
          !('licenseKey' in example.value) &&
          !('token' in example.value),
        status: Number(status),
        answers: answers.map((answer) => answer.value),
      }));
    }),
  );
}

describe.each(databaseTargets)('the API reference’s examples, pasted, on $name', (target) => {
  let t: TestApp;
  let cases: ExampleCase[];
  let tags: string[];
  let licenceId: string;

  /** The licence and token the examples name, active and unrevoked, as before each paste. */
  async function prepare(): Promise<void> {
    const db = t.deps.database.db;
    // The org the examples name is at work, so releasing it answers as documented.
    await db
      .insert(licenceOrgs)
      .values({
        licenceId,
        orgId: exampleCredentials.orgId,
        firstSeenAt: t.deps.clock(),
        lastSeenAt: t.deps.clock(),
      })
      .onConflictDoUpdate({
        target: [licenceOrgs.licenceId, licenceOrgs.orgId],
        set: { lastSeenAt: t.deps.clock() },
      });
    await db.delete(accessTokens).where(eq(accessTokens.licenceId, licenceId));
    await db.insert(accessTokens).values({
      id: exampleCredentials.tokenId,
      licenceId,
      tokenHash: hashAccessToken(t.deps.secretKey, exampleCredentials.token),
      tokenHint: accessTokenHint(exampleCredentials.token),
      name: 'GitHub Actions',
      createdVia: 'self-service',
    });
  }

  beforeAll(async () => {
    t = await createTestApp(target);
    const { licence } = await createLicence(t, { ...exampleCredentials.licence });
    licenceId = licence.id;
    await t.deps.database.db
      .update(licences)
      .set({
        keyHash: hashLicenceKey(t.deps.secretKey, exampleCredentials.licenseKey),
        keyHint: licenceKeyHint(exampleCredentials.licenseKey),
      })
      .where(eq(licences.id, licenceId));
    const res = await t.app.request('/account/v1/openapi.json');
    const document = documentSchema.parse(await res.json());
    cases = casesOf(document);
    tags = document.tags.map((tag) => tag.name);
  });
  afterAll(() => t.close());

  it('opens on licence validation, then what else the CLI calls', () => {
    expect(tags.slice(0, 3)).toEqual([
      'Licence validation',
      'Licence certificates',
      'Access tokens',
    ]);
  });

  it('has the CLI’s examples to paste: validate by key and by token, and the token calls', () => {
    expect(cases.map((example) => example.name)).toEqual(
      expect.arrayContaining([
        'POST /account/v1/licenses/validate licenceKey',
        'POST /account/v1/licenses/validate accessToken',
        'POST /account/v1/access-tokens ci',
        'POST /account/v1/access-tokens/list byKey',
        'POST /account/v1/access-tokens/revoke byToken',
        'POST /account/v1/access-tokens/revoke byId',
      ]),
    );
    for (const example of cases) expect(example.answers.length, example.name).toBeGreaterThan(0);
  });

  it('answers every example request with the documented answer', async () => {
    const failures: string[] = [];
    for (const example of cases) {
      await prepare();
      const res = await t.app.request(example.path, {
        method: example.method,
        headers: {
          ...csrfHeaders(),
          'Content-Type': 'application/json',
          ...(example.bearer ? { Authorization: `Bearer ${exampleCredentials.token}` } : {}),
        },
        body: JSON.stringify(example.body),
      });
      const answer: unknown = await res.json();
      if (res.status !== example.status) {
        failures.push(`${example.name}: ${res.status} ${JSON.stringify(answer)}`);
        continue;
      }
      const matching = example.answers.filter(
        (documented) =>
          sameShape(documented, answer) &&
          Object.entries(exactFacts(documented)).every(
            ([at, value]) => JSON.stringify(exactFacts(answer)[at]) === JSON.stringify(value),
          ),
      );
      if (matching.length === 0) {
        failures.push(`${example.name}: no documented answer looks like ${JSON.stringify(answer)}`);
      }
    }
    expect(failures).toEqual([]);
  });
});
