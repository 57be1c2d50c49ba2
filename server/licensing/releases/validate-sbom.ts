import { createHash } from 'node:crypto';
import { Spec, Validation } from '@cyclonedx/cyclonedx-library';
import { z } from 'zod';
import type { ReleaseSbom } from './release-repository.ts';

/** An SBOM larger than this is refused: the catalog serves it from the database (decision 141). */
export const MAX_SBOM_BYTES = 5 * 1024 * 1024;
/** At most this many schema errors are listed; the rest are counted. */
const MAX_LISTED_ERRORS = 20;

/** The CycloneDX versions with a JSON schema (1.0 and 1.1 were XML only). */
const jsonSpecVersions: readonly string[] = [
  Spec.Version.v1dot2,
  Spec.Version.v1dot3,
  Spec.Version.v1dot4,
  Spec.Version.v1dot5,
  Spec.Version.v1dot6,
  Spec.Version.v1dot7,
];

function isSpecVersion(value: string): value is Spec.Version {
  return jsonSpecVersions.includes(value);
}

export type SbomValidationResult =
  | { ok: true; sbom: ReleaseSbom; specVersion: string; components: number }
  | { ok: false; errors: string[] };

const header = z.looseObject({
  bomFormat: z.literal('CycloneDX', { error: 'must be "CycloneDX"' }),
  specVersion: z.string({ error: 'must be a string such as "1.6"' }),
  components: z.array(z.unknown()).optional(),
  metadata: z
    .looseObject({
      component: z.looseObject({ version: z.unknown().optional() }).optional(),
    })
    .optional(),
});

/** ajv's error objects, as far as a message needs them. */
const schemaErrors = z.array(
  z.object({
    instancePath: z.string(),
    message: z.string().optional(),
    params: z.record(z.string(), z.unknown()).optional(),
  }),
);

/** `/components/0/purl` → `components[0].purl`, the way manifest errors name fields. */
function describePointer(pointer: string): string {
  if (pointer === '') return 'SBOM';
  return pointer
    .slice(1)
    .split('/')
    .map((part) => part.replaceAll('~1', '/').replaceAll('~0', '~'))
    .map((part) => (/^\d+$/.test(part) ? `[${part}]` : `.${part}`))
    .join('')
    .replace(/^\./, '');
}

function describeSchemaError(error: z.output<typeof schemaErrors>[number]): string {
  const { additionalProperty, allowedValues } = error.params ?? {};
  const extra =
    typeof additionalProperty === 'string'
      ? ` ("${additionalProperty}")`
      : Array.isArray(allowedValues)
        ? `: ${allowedValues.map((value) => JSON.stringify(value)).join(', ')}`
        : '';
  return `${describePointer(error.instancePath)}: ${error.message ?? 'is not valid'}${extra}`;
}

/**
 * Checks an SBOM file for a release: at most 5 MB of UTF-8 JSON, a CycloneDX document of a JSON
 * spec version, valid against that version's official JSON schema (shipped with
 * @cyclonedx/cyclonedx-library, strict where the spec has a strict variant), and describing this
 * release when it names a version. Errors come one per line, each naming the offending path.
 */
export async function validateSbom(
  bytes: Uint8Array,
  release: { version: string },
): Promise<SbomValidationResult> {
  if (bytes.byteLength > MAX_SBOM_BYTES) {
    return {
      ok: false,
      errors: [
        `SBOM: ${bytes.byteLength} bytes; an SBOM is at most ${MAX_SBOM_BYTES} bytes (5 MB)`,
      ],
    };
  }
  let text: string;
  let json: unknown;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return { ok: false, errors: ['SBOM: not UTF-8 text'] };
  }
  try {
    json = JSON.parse(text);
  } catch (error) {
    return {
      ok: false,
      errors: [`SBOM: not valid JSON: ${error instanceof Error ? error.message : String(error)}`],
    };
  }
  const parsed = header.safeParse(json);
  if (!parsed.success) {
    return {
      ok: false,
      errors: parsed.error.issues.map(
        (issue) =>
          `${issue.path.length === 0 ? 'SBOM' : issue.path.join('.')}: ${issue.path.length === 0 ? 'must be a JSON object' : issue.message}`,
      ),
    };
  }
  const { specVersion } = parsed.data;
  if (!isSpecVersion(specVersion)) {
    return {
      ok: false,
      errors: [
        `specVersion: "${specVersion}" is not a CycloneDX version with a JSON schema (${jsonSpecVersions.join(', ')})`,
      ],
    };
  }
  const invalid: unknown = await new Validation.JsonStrictValidator(specVersion).validate(text);
  if (invalid !== null) {
    const listed = schemaErrors.safeParse(invalid);
    if (!listed.success)
      return { ok: false, errors: ['SBOM: does not match the CycloneDX schema'] };
    const lines = [...new Set(listed.data.map(describeSchemaError))];
    const more = lines.length - MAX_LISTED_ERRORS;
    return {
      ok: false,
      errors: [
        ...lines.slice(0, MAX_LISTED_ERRORS),
        ...(more > 0 ? [`… and ${more} more schema errors`] : []),
      ],
    };
  }
  const componentVersion = parsed.data.metadata?.component?.version;
  if (componentVersion !== undefined && componentVersion !== release.version) {
    return {
      ok: false,
      errors: [
        `metadata.component.version: ${JSON.stringify(componentVersion)}, but the release is ${release.version}`,
      ],
    };
  }
  return {
    ok: true,
    sbom: { document: text, sha256: createHash('sha256').update(bytes).digest('hex') },
    specVersion,
    components: parsed.data.components?.length ?? 0,
  };
}
