import { expect, test } from './support/test.ts';
import { expectNoAxeViolations } from './support/axe.ts';
import { addVirtualAuthenticator, enrolOperator, inviteOperator } from './support/console.ts';

/**
 * The operator console in Chromium (decision 226): an owner invited by `operators invite` opens
 * the enrolment link on the console's own listener, creates a passkey with Chromium's virtual
 * authenticator (user verification on), lands signed in, invites another operator, signs out
 * and signs in again with the passkey — at 1280 and 390 px, axe on every page.
 */
// Two admin processes and several passkey ceremonies on a busy machine.
test.describe.configure({ timeout: 90_000 });

for (const width of [1280, 390]) {
  test(`an owner enrols with a passkey, invites, signs out and in at ${width} px`, async ({
    page,
    e2eServer,
  }) => {
    await page.setViewportSize({ width, height: 900 });
    const email = `owner-${width}@orgsmith.test`;
    const link = await inviteOperator(e2eServer, email, 'owner');
    expect(link.startsWith(`${e2eServer.consoleURL}/console/enrol/`)).toBe(true);
    const { cdp, authenticatorId } = await addVirtualAuthenticator(page);

    // Enrolment: the passkey is created and the owner lands on the console's home page.
    const enrolPage = await page.goto(link);
    expect(enrolPage?.headers()['cache-control']).toBe('no-store');
    expect(enrolPage?.headers()['x-robots-tag']).toBe('noindex, nofollow');
    expect(enrolPage?.headers()['content-security-policy']).toContain("frame-ancestors 'none'");
    await expect(
      page.getByRole('heading', { level: 1, name: 'Create your passkey' }),
    ).toBeVisible();
    await expectNoAxeViolations(page, `enrol at ${width}`);
    await page.getByRole('button', { name: 'Create a passkey' }).click();
    // The passkey ceremony is slow on a busy machine (as in enrolOperator).
    await expect(page).toHaveURL(`${e2eServer.consoleURL}/console`, { timeout: 30_000 });
    await expect(page.getByRole('heading', { level: 1, name: 'Operator console' })).toBeVisible();
    await expect(page.getByRole('main')).toContainText(email);
    await expect(page.getByRole('main')).toContainText('owner');
    await expectNoAxeViolations(page, `home at ${width}`);
    // One passkey, kept on the authenticator (discoverable), for this console's host name.
    const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
    expect(credentials).toHaveLength(1);
    expect(credentials[0]).toMatchObject({ isResidentCredential: true, rpId: 'localhost' });

    // The session cookie is the console's, HttpOnly, Secure, SameSite=Strict.
    const [cookie] = await page.context().cookies(e2eServer.consoleURL);
    expect(cookie).toMatchObject({
      name: '__Host-orgsmith-console',
      httpOnly: true,
      secure: true,
      sameSite: 'Strict',
      path: '/',
    });

    // The owner invites a support operator; the link is shown once.
    await page.getByRole('link', { name: 'Operators' }).first().click();
    await expect(page.getByRole('heading', { level: 1, name: 'Operators' })).toBeVisible();
    await page.getByLabel('E-mail address').fill(`support-${width}@orgsmith.test`);
    await page.getByLabel('Role', { exact: true }).selectOption('support');
    await page.getByRole('button', { name: 'Invite', exact: true }).click();
    await expect(page.getByTestId('enrolment-link')).toContainText('/console/enrol/');
    await expect(
      page.getByRole('cell', { name: `support-${width}@orgsmith.test`, exact: true }),
    ).toBeVisible();
    await expectNoAxeViolations(page, `operators at ${width}`);
    // No sideways scrolling of the page: the table scrolls in its own box at 390 px.
    expect(
      await page.evaluate(
        () => document.documentElement.scrollWidth <= document.documentElement.clientWidth,
      ),
    ).toBe(true);

    // …changes their role, then disables them: each change said, and shown in the list.
    const invitee = `support-${width}@orgsmith.test`;
    const row = page.getByRole('row').filter({ hasText: invitee });
    await row.getByLabel(`Role of ${invitee}`).selectOption('finance');
    await row.getByRole('button', { name: `Change role of ${invitee}` }).click();
    await expect(
      page.getByRole('status').filter({ hasText: `${invitee} is now finance.` }),
    ).toBeVisible();
    page.once('dialog', (dialog) => void dialog.accept());
    await page
      .getByRole('row')
      .filter({ hasText: invitee })
      .getByRole('button', { name: `Disable ${invitee}` })
      .click();
    await expect(
      page.getByRole('status').filter({ hasText: `${invitee} is disabled` }),
    ).toBeVisible();
    await expect(page.getByRole('row').filter({ hasText: invitee })).toContainText('disabled');

    // Sign out, then in again with the same passkey.
    await page.getByRole('button', { name: 'Sign out' }).click();
    await expect(page).toHaveURL(`${e2eServer.consoleURL}/console/sign-in`);
    await expectNoAxeViolations(page, `sign-in at ${width}`);
    await page.goto(`${e2eServer.consoleURL}/console/operators`);
    await expect(page).toHaveURL(`${e2eServer.consoleURL}/console/sign-in`);
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await expect(page).toHaveURL(`${e2eServer.consoleURL}/console`, { timeout: 30_000 });
    await expect(page.getByRole('main')).toContainText(email);

    // The link worked once.
    await page.goto(link);
    await page.getByRole('button', { name: 'Create a passkey' }).click();
    await expect(page.getByRole('alert')).toContainText('already used or has expired');
  });
}

test('a viewer sees no Operators page: the console hides what the role cannot do', async ({
  page,
  e2eServer,
}) => {
  await enrolOperator(page, e2eServer, 'viewer@orgsmith.test', 'viewer');
  await expect(page.getByRole('main')).toContainText('viewer');
  await expect(page.getByRole('link', { name: 'Operators' })).toHaveCount(0);
  await page.goto(`${e2eServer.consoleURL}/console/operators`);
  await expect(page.getByRole('status')).toHaveText(
    'Your role (viewer) does not manage operators.',
  );
  await expect(page.getByRole('button', { name: 'Invite', exact: true })).toHaveCount(0);
  await expectNoAxeViolations(page, 'operators as a viewer');
});

test('the public port has no console', async ({ request, e2eServer }) => {
  for (const path of ['/console', '/console/sign-in', '/console/api/session']) {
    const response = await request.get(`${e2eServer.baseURL}${path}`);
    expect(response.status(), path).toBe(404);
  }
});
