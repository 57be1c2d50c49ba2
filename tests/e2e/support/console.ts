import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { expect, type Page } from '@playwright/test';
import { ADMIN_ENTRY } from '#server/platform/node-flags.ts';

/**
 * The console specs' one helper (decisions 226, 236): operators invited with the admin command on
 * the worker's e2e server, enrolled with Chromium's virtual authenticator, signed in.
 */

const exec = promisify(execFile);

/** Where the admin commands find the e2e server: its data directory and console origin. */
export interface ConsoleServer {
  dataDir: string;
  consoleURL: string;
}

/** The environment `npm run admin -- …` runs in against the e2e server's embedded database. */
export function adminEnv(server: ConsoleServer): NodeJS.ProcessEnv {
  return {
    ...process.env,
    DATA_DIR: server.dataDir,
    DATABASE_URL: '',
    CONSOLE_ORIGIN: server.consoleURL,
    LOG_LEVEL: 'warn',
  };
}

/** Runs an admin command on the e2e server's data; its standard output (rejects when it fails). */
export async function admin(server: ConsoleServer, ...args: string[]): Promise<string> {
  const done = await exec(process.execPath, [ADMIN_ENTRY, ...args], { env: adminEnv(server) });
  return done.stdout;
}

/** Invites an operator with `operators invite`: the enrolment link it prints. */
export async function inviteOperator(
  server: ConsoleServer,
  email: string,
  role: string,
): Promise<string> {
  const stdout = await admin(server, 'operators', 'invite', email, '--role', role);
  const url = /https?:\/\/\S+\/console\/enrol\/[A-Za-z0-9_-]{32}/.exec(stdout)?.[0];
  if (!url) throw new Error(`no enrolment link in: ${stdout}`);
  return url;
}

/** Chromium's virtual platform authenticator on `page`: passkeys with user verification, no prompt. */
export async function addVirtualAuthenticator(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return { cdp, authenticatorId };
}

/** Opens an enrolment link on `page` (with a virtual authenticator) and creates the passkey. */
export async function enrolWithLink(page: Page, link: string): Promise<void> {
  await addVirtualAuthenticator(page);
  await page.goto(link);
  await page.getByRole('button', { name: 'Create a passkey' }).click();
  // The passkey ceremony is slow on a busy machine.
  await expect(page.getByRole('heading', { level: 1, name: 'Operator console' })).toBeVisible({
    timeout: 30_000,
  });
}

/** An operator of `role` invited, enrolled with a passkey on `page` and signed in. */
export async function enrolOperator(
  page: Page,
  server: ConsoleServer,
  email: string,
  role: string,
): Promise<void> {
  await enrolWithLink(page, await inviteOperator(server, email, role));
}
