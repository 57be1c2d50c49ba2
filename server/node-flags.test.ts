import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { SERVER_NODE_FLAGS } from './node-flags.ts';

const packageJson = z.object({ scripts: z.record(z.string(), z.string()) });

describe('SERVER_NODE_FLAGS', () => {
  it('are what `npm run serve` starts the server with', () => {
    const { scripts } = packageJson.parse(JSON.parse(readFileSync('package.json', 'utf8')));
    expect(scripts.serve).toBe(
      `node --env-file-if-exists=.env ${SERVER_NODE_FLAGS.join(' ')} server/main.ts`,
    );
  });

  it("are what the image's CMD starts the server with", () => {
    const dockerfile = readFileSync('deploy/Dockerfile', 'utf8');
    const cmd = JSON.stringify(['node', ...SERVER_NODE_FLAGS, 'server/main.ts']);
    expect(dockerfile).toContain(`CMD ${cmd.replaceAll(',', ', ')}`);
  });
});
