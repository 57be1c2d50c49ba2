import { generateKeyPairSync, sign } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { canonicalJson } from './canonical-json.ts';
import { issueLicenceCertificate, type CertificateSubject } from './issue-licence-certificate.ts';
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
    input: [z.unknown(), z.unknown(), z.unknown(), z.date()],
    output: z.boolean(),
  }),
});

describe('the verification snippet in docs/licence-certificates.md', () => {
  let dir: string;
  let verifySnippet: (certificate: unknown, keySet: unknown, scope: unknown, now: Date) => boolean;
  const key = signingKeyFrom(generateKeyPairSync('ed25519').privateKey);
  const keySet = JSON.parse(JSON.stringify({ keys: [key.publicJwk] }));
  const now = new Date('2026-01-15T10:00:00.000Z');
  const productId = 'orgsmith-cli';
  const orgA = '00D5g000004Xyz1EAC';
  const orgB = '00D5g000004Xyz2EAC';
  const subject: CertificateSubject = {
    licenceId: 'lic_1',
    type: 'Paid',
    edition: 'Pro',
    quantity: 4,
    orgs: 4,
    stacks: 2,
    features: ['rollback', 'support'],
    orgId: orgA,
    productId,
    expiresAt: new Date('2026-03-01T00:00:00.000Z'),
  };
  /** The certificate as the CLI receives it: JSON from the API. */
  const certificate = JSON.parse(JSON.stringify(issueLicenceCertificate(key, subject, now)));
  const forOrgA = { orgId: orgA, productId };

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'licence-snippet-'));
    verifySnippet = snippetModule.parse(await loadSnippet(dir)).verifyLicenceCertificate;
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('accepts a real certificate for the org (18 or 15 characters) and product it names', () => {
    expect(verifySnippet(certificate, keySet, forOrgA, now)).toBe(true);
    expect(verifySnippet(certificate, keySet, { orgId: orgA.slice(0, 15), productId }, now)).toBe(
      true,
    );
  });

  it('refuses the certificate of org A while working on org B, or on another product', () => {
    expect(verifySnippet(certificate, keySet, { orgId: orgB, productId }, now)).toBe(false);
    expect(verifySnippet(certificate, keySet, { orgId: orgB.slice(0, 15), productId }, now)).toBe(
      false,
    );
    // Same letters, other case: another org (15-character ids are case-sensitive).
    const otherCase = `${orgA.slice(0, 11)}x${orgA.slice(12, 15)}`;
    expect(verifySnippet(certificate, keySet, { orgId: otherCase, productId }, now)).toBe(false);
    expect(verifySnippet(certificate, keySet, { orgId: orgA, productId: 'other-tool' }, now)).toBe(
      false,
    );
  });

  it('refuses when the caller names no org or product', () => {
    expect(verifySnippet(certificate, keySet, undefined, now)).toBe(false);
    expect(verifySnippet(certificate, keySet, { productId }, now)).toBe(false);
    expect(verifySnippet(certificate, keySet, { orgId: '', productId }, now)).toBe(false);
    expect(verifySnippet(certificate, keySet, { orgId: orgA }, now)).toBe(false);
  });

  it('refuses a genuinely signed certificate that names no org (as issued before decision 151)', () => {
    const payload = { ...certificate.payload, orgId: null };
    const signature = sign(null, Buffer.from(canonicalJson(payload), 'utf8'), key.privateKey);
    const orgless = { payload, signature: signature.toString('base64url'), keyId: key.keyId };
    expect(verifySnippet(orgless, keySet, forOrgA, now)).toBe(false);
    expect(verifySnippet(orgless, keySet, { orgId: orgB, productId }, now)).toBe(false);
  });

  it('rejects a tampered payload, a foreign key and an expired certificate', () => {
    const tampered = structuredClone(certificate);
    tampered.payload.quantity = 100;
    expect(verifySnippet(tampered, keySet, forOrgA, now)).toBe(false);
    const moved = structuredClone(certificate);
    moved.payload.orgId = orgB;
    expect(verifySnippet(moved, keySet, { orgId: orgB, productId }, now)).toBe(false);
    const other = signingKeyFrom(generateKeyPairSync('ed25519').privateKey);
    expect(
      verifySnippet(certificate, { keys: [{ ...other.publicJwk, kid: key.keyId }] }, forOrgA, now),
    ).toBe(false);
    expect(verifySnippet(certificate, keySet, forOrgA, new Date('2026-03-01T00:00:00.000Z'))).toBe(
      false,
    );
  });
});
