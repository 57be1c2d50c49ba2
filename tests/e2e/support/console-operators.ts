import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { Page } from '@playwright/test';
import { ADMIN_ENTRY } from '#server/platform/node-flags.ts';

const exec = promisify(execFile);

/** Invites an operator with `operators invite` on the e2e server's data: the enrolment link. */
export async function inviteOperator(
  dataDir: string,
  consoleURL: string,
  email: string,
  role: string,
): Promise<string> {
  const done = await exec(
    process.execPath,
    [ADMIN_ENTRY, 'operators', 'invite', email, '--role', role],
    {
      env: {
        ...process.env,
        DATA_DIR: dataDir,
        DATABASE_URL: '',
        CONSOLE_ORIGIN: consoleURL,
        LOG_LEVEL: 'warn',
      },
    },
  );
  const url = /https?:\/\/\S+\/console\/enrol\/[A-Za-z0-9_-]{32}/.exec(done.stdout)?.[0];
  if (!url) throw new Error(`no enrolment link in: ${done.stdout}`);
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

/** An operator of `role` invited, enrolled with a passkey on `page` and signed in. */
export async function enrolOperator(
  page: Page,
  server: { dataDir: string; consoleURL: string },
  email: string,
  role: string,
): Promise<void> {
  const link = await inviteOperator(server.dataDir, server.consoleURL, email, role);
  await addVirtualAuthenticator(page);
  await page.goto(link);
  await page.getByRole('button', { name: 'Create a passkey' }).click();
  await page.waitForURL(`${server.consoleURL}/console`);
}
