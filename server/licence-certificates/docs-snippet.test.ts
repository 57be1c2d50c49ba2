import { generateKeyPairSync } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { issueLicenceCertificate } from './issue-licence-certificate.ts';
import { signingKeyFrom } from './signing-key.ts';

const docPath = new URL('../../docs/licence-certificates.md', import.meta.url);

/** The verification snippet of the docs: the code block that defines verifyLicenceCertificate. */
async function loadSnippet(dir: string): Promise<unknown> {
  const markdown = await readFile(docPath, 'utf8');
  const blocks = [...markdown.matchAll(/```js\n([\s\S]*?)```/g)].map((match) => match[1] ?? '');
  const snippet = blocks.find((block) =>
    block.includes('export function verifyLicenceCertificate'),
  );
  if (!snippet) throw new Error('the docs lost their verification snippet');
  const file = path.join(dir, 'verify.mjs');
  await writeFile(file, snippet);
  const module: unknown = await import(/* @vite-ignore */ pathToFileURL(file).href);
  return module;
}

const snippetModule = z.object({
  verifyLicenceCertificate: z.function({
    input: [z.unknown(), z.unknown(), z.date()],
    output: z.boolean(),
  }),
});

describe('the verification snippet in docs/licence-certificates.md', () => {
  let dir: string;
  let verifySnippet: (certificate: unknown, keySet: unknown, now: Date) => boolean;
  const key = signingKeyFrom(generateKeyPairSync('ed25519').privateKey);
  const keySet = JSON.parse(JSON.stringify({ keys: [key.publicJwk] }));
  const now = new Date('2026-01-15T10:00:00.000Z');
  const certificate = JSON.parse(
    JSON.stringify(
      issueLicenceCertificate(
        key,
        {
          licenceId: 'lic_1',
          type: 'Trial',
          edition: 'Enterprise',
          quantity: 25,
          orgs: 'unlimited',
          stacks: 'unlimited',
          features: ['branchSwitching', 'rollback'],
          orgId: null,
          productId: 'orgsmith-cli',
          expiresAt: new Date('2026-03-01T00:00:00.000Z'),
        },
        now,
      ),
    ),
  );

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'licence-snippet-'));
    verifySnippet = snippetModule.parse(await loadSnippet(dir)).verifyLicenceCertificate;
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('accepts a real certificate from the JSON the API sends', () => {
    expect(verifySnippet(certificate, keySet, now)).toBe(true);
  });

  it('rejects a tampered payload, a foreign key and an expired certificate', () => {
    const tampered = structuredClone(certificate);
    tampered.payload.quantity = 100;
    expect(verifySnippet(tampered, keySet, now)).toBe(false);
    const other = signingKeyFrom(generateKeyPairSync('ed25519').privateKey);
    expect(
      verifySnippet(certificate, { keys: [{ ...other.publicJwk, kid: key.keyId }] }, now),
    ).toBe(false);
    expect(verifySnippet(certificate, keySet, new Date('2026-03-01T00:00:00.000Z'))).toBe(false);
  });
});
