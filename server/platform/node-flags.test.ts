import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { SERVER_ENTRY, SERVER_ENVIRONMENT, SERVER_NODE_FLAGS } from './node-flags.ts';

const packageJson = z.object({ scripts: z.record(z.string(), z.string()) });
const environment = Object.entries(SERVER_ENVIRONMENT);

describe('the production start', () => {
  it('is what `npm run serve` runs', () => {
    const { scripts } = packageJson.parse(JSON.parse(readFileSync('package.json', 'utf8')));
    const assignments = environment.map(([name, value]) => `${name}=${value}`).join(' ');
    expect(scripts.serve).toBe(
      `${assignments} node --env-file-if-exists=.env ${SERVER_NODE_FLAGS.join(' ')} ${SERVER_ENTRY}`,
    );
  });

  it("is what the image's CMD runs, with the same environment", () => {
    const dockerfile = readFileSync('deploy/Dockerfile', 'utf8');
    const cmd = JSON.stringify(['node', ...SERVER_NODE_FLAGS, SERVER_ENTRY]);
    expect(dockerfile).toContain(`CMD ${cmd.replaceAll(',', ', ')}`);
    for (const [name, value] of environment) {
      expect(dockerfile).toMatch(new RegExp(`^\\s*(ENV )?${name}=${value}\\b`, 'm'));
    }
  });

  it('builds the entry it runs', () => {
    const { scripts } = packageJson.parse(JSON.parse(readFileSync('package.json', 'utf8')));
    expect(scripts.build).toContain('node scripts/build-server.ts');
  });
});
