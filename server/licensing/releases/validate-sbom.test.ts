import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAX_SBOM_BYTES, validateSbom } from './validate-sbom.ts';

const example = await readFile(
  path.resolve(import.meta.dirname, '../../../docs/sbom.example.cdx.json'),
);
const release = { version: '3.3.0' };
const bytes = (value: unknown) => Buffer.from(JSON.stringify(value));
const exampleJson = (): Record<string, unknown> =>
  JSON.parse(example.toString('utf8')) as Record<string, unknown>;

async function errorsOf(input: Uint8Array, version = release.version): Promise<string[]> {
  const result = await validateSbom(input, { version });
  if (result.ok) throw new Error('expected the SBOM to be refused');
  return result.errors;
}

describe('SBOM validation (CycloneDX JSON schema)', () => {
  it('accepts the example SBOM of docs/ and keeps its bytes and their SHA-256', async () => {
    const result = await validateSbom(example, release);
    expect(result).toMatchObject({ ok: true, specVersion: '1.6', components: 2 });
    if (!result.ok) return;
    expect(result.sbom.document).toBe(example.toString('utf8'));
    expect(result.sbom.sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it('accepts other JSON spec versions, and a minimal document', async () => {
    for (const specVersion of ['1.4', '1.5', '1.7']) {
      const result = await validateSbom(bytes({ bomFormat: 'CycloneDX', specVersion }), release);
      expect(result.ok, specVersion).toBe(true);
    }
  });

  it('names the path of a schema error, one per line', async () => {
    const invalid = exampleJson();
    invalid.components = [{ type: 'gadget', name: 'x' }];
    expect(await errorsOf(bytes(invalid))).toEqual([
      expect.stringMatching(/^components\[0\]\.type: must be equal to one of the allowed values/),
    ]);
    const extra = exampleJson();
    extra.surprise = true;
    expect(await errorsOf(bytes(extra))).toEqual([
      'SBOM: must NOT have additional properties ("surprise")',
    ]);
    const badHash = exampleJson();
    badHash.components = [
      { type: 'library', name: 'x', hashes: [{ alg: 'SHA-256', content: 'nothex' }] },
    ];
    expect((await errorsOf(bytes(badHash)))[0]).toMatch(/^components\[0\]\.hashes\[0\]\.content: /);
  });

  it('refuses a document that is not CycloneDX JSON of a known version', async () => {
    expect(await errorsOf(Buffer.from('{"bomFormat":'))).toEqual([
      expect.stringMatching(/^SBOM: not valid JSON: /),
    ]);
    expect(await errorsOf(Buffer.from([0xff, 0xfe, 0x7b]))).toEqual(['SBOM: not UTF-8 text']);
    expect(await errorsOf(bytes([1, 2]))).toEqual(['SBOM: must be a JSON object']);
    expect(await errorsOf(bytes({ bomFormat: 'SPDX', specVersion: '1.6' }))).toEqual([
      'bomFormat: must be "CycloneDX"',
    ]);
    expect(await errorsOf(bytes({ bomFormat: 'CycloneDX', specVersion: '1.1' }))).toEqual([
      'specVersion: "1.1" is not a CycloneDX version with a JSON schema (1.2, 1.3, 1.4, 1.5, 1.6, 1.7)',
    ]);
  });

  it('refuses an SBOM of another version of the CLI', async () => {
    expect(await errorsOf(example, '3.4.0')).toEqual([
      'metadata.component.version: "3.3.0", but the release is 3.4.0',
    ]);
  });

  it('refuses more than 5 MB before reading it as JSON', async () => {
    const big = Buffer.alloc(MAX_SBOM_BYTES + 1, 0x20);
    expect(await errorsOf(big)).toEqual([
      `SBOM: ${MAX_SBOM_BYTES + 1} bytes; an SBOM is at most ${MAX_SBOM_BYTES} bytes (5 MB)`,
    ]);
    // Exactly at the cap is read (and here refused only because spaces are no JSON).
    expect((await errorsOf(Buffer.alloc(MAX_SBOM_BYTES, 0x20)))[0]).toMatch(/not valid JSON/);
  });
});
