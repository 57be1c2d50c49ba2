import { spawn } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import {
  SERVER_ENTRY,
  SERVER_ENVIRONMENT,
  SERVER_NODE_FLAGS,
} from '#server/platform/node-flags.ts';
import { forAnotherUser } from '#tests/support/another-user.ts';
import { freePort } from '#tests/support/free-port.ts';

/**
 * Starts the build as `npm start` does (`build/service/main.js` with the production flags; the
 * suite builds first unless build/ is current), with no Stripe keys, no PAYMENT_PROVIDER and no
 * PUBLIC_BASE_URL unless `env` sets them, and waits for it to exit: for settings it must refuse.
 * One that starts instead is killed after `timeoutMs` (its code is then null). As another user
 * (`uid`) it runs a copy of the app that user can reach (`forAnotherUser`). `output` is both
 * streams as they came, `stderr` the standard error alone.
 */
export async function startAndExit(
  env: Record<string, string>,
  options: {
    uid?: number;
    gid?: number;
    timeoutMs?: number;
    /** The working directory it starts in (default: the app's); the entry is found either way. */
    workingDir?: string;
  } = {},
): Promise<{ code: number | null; output: string; stderr: string }> {
  const asAnother =
    options.uid === undefined ? undefined : await forAnotherUser({ app: true, uid: options.uid });
  const appDir = asAnother?.dir ?? process.cwd();
  const entry = path.resolve(appDir, SERVER_ENTRY);
  const child = spawn(asAnother?.node ?? process.execPath, [...SERVER_NODE_FLAGS, entry], {
    cwd: options.workingDir ?? appDir,
    env: {
      ...process.env,
      ...SERVER_ENVIRONMENT,
      NODE_ENV: 'production',
      PORT: String(await freePort()),
      CONSOLE_PORT: String(await freePort()),
      STRIPE_SECRET_KEY: '',
      STRIPE_WEBHOOK_SECRET: '',
      PAYMENT_PROVIDER: '',
      PUBLIC_BASE_URL: '',
      HOST: '',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    ...(options.uid === undefined ? {} : { uid: options.uid, gid: options.gid ?? options.uid }),
  });
  let output = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => {
    output += chunk.toString();
    stderr += chunk.toString();
  });
  const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 20_000);
  const [code] = (await once(child, 'exit')) as [number | null];
  clearTimeout(timer);
  await asAnother?.remove();
  return { code, output, stderr };
}
