import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { z } from 'zod';

const docPath = new URL('../../docs/licence-certificates.md', import.meta.url);

const snippetModule = z.object({
  verifyLicenceCertificate: z.function({
    input: [z.unknown(), z.unknown(), z.unknown(), z.date()],
    output: z.boolean(),
  }),
});

/** The reference verifier as the docs publish it: (certificate, keySet, { orgId, productId }, now). */
export type CertificateSnippet = (
  certificate: unknown,
  keySet: unknown,
  scope: unknown,
  now: Date,
) => boolean;

/**
 * Loads the code block of docs/licence-certificates.md that defines verifyLicenceCertificate, as a
 * module written to a temporary folder, so tests run exactly what the docs tell CLI authors.
 */
export async function loadCertificateSnippet(): Promise<{
  verify: CertificateSnippet;
  dispose(): Promise<void>;
}> {
  const markdown = await readFile(docPath, 'utf8');
  const blocks = [...markdown.matchAll(/```js\n([\s\S]*?)```/g)].map((match) => match[1] ?? '');
  const snippet = blocks.find((block) =>
    block.includes('export function verifyLicenceCertificate'),
  );
  if (!snippet) throw new Error('the docs lost their verification snippet');
  const dir = await mkdtemp(path.join(tmpdir(), 'licence-snippet-'));
  const file = path.join(dir, 'verify.mjs');
  await writeFile(file, snippet);
  const module: unknown = await import(/* @vite-ignore */ pathToFileURL(file).href);
  return {
    verify: snippetModule.parse(module).verifyLicenceCertificate,
    dispose: () => rm(dir, { recursive: true, force: true }),
  };
}
