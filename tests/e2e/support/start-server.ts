import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  SERVER_ENTRY,
  SERVER_ENVIRONMENT,
  SERVER_NODE_FLAGS,
} from '#server/platform/node-flags.ts';

/**
 * Starts the production server for the e2e run on a throwaway data directory, exactly as
 * `npm run serve` does; the SMTP sink and other fixtures are configured through the environment.
 */
const port = process.env.E2E_PORT ?? '3100';
const dataDir = mkdtempSync(path.join(tmpdir(), 'orgsmith-e2e-'));
const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, SERVER_ENTRY], {
  stdio: 'inherit',
  env: {
    ...process.env,
    ...SERVER_ENVIRONMENT,
    PORT: port,
    DATA_DIR: dataDir,
    PUBLIC_BASE_URL: `http://localhost:${port}`,
    DATABASE_URL: '',
  },
});
const stop = () => child.kill('SIGTERM');
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
child.on('exit', (code) => process.exit(code ?? 0));
