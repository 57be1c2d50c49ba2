import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { z } from 'zod';

export const OPENAPI_PATH = '/account/v1/openapi.json';
export const API_REFERENCE_PATH = '/account/v1/docs';

// The package exports neither its browser bundle nor its package.json: found beside its entry.
export const scalarDist = dirname(createRequire(import.meta.url).resolve('@scalar/api-reference'));
const scalarVersion = z
  .object({ version: z.string() })
  .parse(JSON.parse(readFileSync(join(scalarDist, '..', 'package.json'), 'utf8'))).version;
/** The versioned name lets browsers keep the bundle for a year. */
export const API_REFERENCE_SCRIPT_PATH = `${API_REFERENCE_PATH}/scalar-${scalarVersion}.js`;
