import { userInfo } from 'node:os';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consoleSession } from '#server/features/console/console-session.ts';
import { consolePortsOf } from '#server/features/console/console-ports.ts';
import { defineRoute } from '#server/platform/api-doc/define-route.ts';
import { createAuditLogRepository } from '#server/platform/audit/audit-log-repository.ts';
import type { AppEnv } from '#server/platform/http/types.ts';
import { CONSOLE_SESSION_COOKIE } from '#shared/contracts/console.ts';
import { databaseTargets } from '../support/databases.ts';
import {
  consoleRequest,
  enrolmentTokenOf,
  enrolWithPasskey,
  sessionCookieOf,
  signedInOperator,
  signInWithPasskey,
} from '../support/console-operator.ts';
import { runAdminOn } from '../support/licensing.ts';
import { createSoftwareAuthenticator } from '../support/software-authenticator.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';

const MINUTE = 60 * 1000;
const cliActor = `cli:${(process.env.SUDO_USER ?? userInfo().username).replace(/[^A-Za-z0-9._-]/g, '_')}`;

describe.each(databaseTargets)('operator console sessions on $name', (target) => {
  let t: TestApp;
  let now: Date;
  const advance = (ms: number) => {
    now = new Date(now.getTime() + ms);
    t.setNow(now);
  };
  const events = (operatorId: string) =>
    createAuditLogRepository(t.deps.database.db).ofTarget('operator', operatorId);

  beforeAll(async () => {
    now = new Date('2026-03-02T09:00:00Z');
    t = await createTestApp(target, { now });
  });
  afterAll(() => t.close());

  it('enrols once through the link `operators invite` prints: 201 and a session, then 410', async () => {
    const invited = await runAdminOn(
      t,
      'operators',
      'invite',
      'Owner.One@Example.test',
      '--role',
      'owner',
    );
    expect(invited.code).toBe(0);
    const url = /http:\/\/localhost:3001\/console\/enrol\/[A-Za-z0-9_-]{32}/.exec(invited.out)?.[0];
    expect(url, invited.out).toBeDefined();
    expect((await runAdminOn(t, 'operators', 'list')).out).toMatch(
      /Owner\.One@Example\.test\s+owner\s+invited/,
    );

    const authenticator = createSoftwareAuthenticator(t.deps.env.CONSOLE_ORIGIN);
    const token = enrolmentTokenOf(url ?? '');
    const { answer } = await enrolWithPasskey(t, authenticator, token);
    expect(answer.status).toBe(201);
    const body = (await answer.json()) as {
      operator: { id: string; role: string; permissions: string[] };
    };
    expect(body.operator).toMatchObject({ role: 'owner' });
    expect(body.operator.permissions).toContain('operator.invite');
    const session = sessionCookieOf(answer);
    expect(session).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const me = await consoleRequest(t, 'session', { session: session ?? null });
    expect(me.status).toBe(200);

    // One operator under every spelling of the address (decision 211).
    const twice = await runAdminOn(
      t,
      'operators',
      'invite',
      'owner.one@example.TEST',
      '--role',
      'viewer',
    );
    expect(twice.err).toContain('is an active operator already');
    // The link works once: its options and a second enrolment answer 410.
    const again = await consoleRequest(t, 'enrolment/options', { body: { token } });
    expect(again.status).toBe(410);
    expect(await again.json()).toMatchObject({ Error: 'EnrolmentLinkGone' });
    // A token that was never issued: 404.
    const unknown = await consoleRequest(t, 'enrolment/options', {
      body: { token: 'x'.repeat(32) },
    });
    expect(unknown.status).toBe(404);

    const trail = (await events(body.operator.id)).map((event) => [
      event.action,
      event.details?.actor,
    ]);
    expect(trail).toEqual([
      ['operator.signed_in', `operator:${body.operator.id}`],
      ['operator.enrolled', `operator:${body.operator.id}`],
      ['operator.passkey_added', `operator:${body.operator.id}`],
      ['operator.invited', cliActor],
    ]);
  });

  it('refuses an enrolment link older than 24 hours with 410, and a passkey without user verification', async () => {
    const invited = await runAdminOn(
      t,
      'operators',
      'invite',
      'late@example.test',
      '--role',
      'viewer',
    );
    const token = enrolmentTokenOf(/\S+\/console\/enrol\/\S+/.exec(invited.out)?.[0] ?? '');
    const authenticator = createSoftwareAuthenticator(t.deps.env.CONSOLE_ORIGIN);
    // Without user verification the passkey is refused, and the link stays usable.
    const options = (await (
      await consoleRequest(t, 'enrolment/options', { body: { token } })
    ).json()) as {
      challengeId: string;
      options: { challenge: string; rp: { id: string }; user: { id: string } };
    };
    const { response } = authenticator.register(options.options, { userVerified: false });
    const unverified = await consoleRequest(t, 'enrolment', {
      body: { token, challengeId: options.challengeId, response },
    });
    expect(unverified.status).toBe(400);
    expect(await unverified.json()).toMatchObject({ Error: 'PasskeyCheckFailed' });

    advance(24 * 60 * MINUTE + 1000);
    const expired = await consoleRequest(t, 'enrolment/options', { body: { token } });
    expect(expired.status).toBe(410);
  });

  it('gives an invited operator a new link when invited again: the old one answers 410', async () => {
    const first = await runAdminOn(
      t,
      'operators',
      'invite',
      'again@example.test',
      '--role',
      'viewer',
    );
    const second = await runAdminOn(
      t,
      'operators',
      'invite',
      'again@example.test',
      '--role',
      'support',
    );
    const tokenOf = (out: string) =>
      enrolmentTokenOf(/\S+\/console\/enrol\/\S+/.exec(out)?.[0] ?? '');
    expect(tokenOf(first.out)).not.toBe(tokenOf(second.out));
    const old = await consoleRequest(t, 'enrolment/options', {
      body: { token: tokenOf(first.out) },
    });
    expect(old.status).toBe(410);
    const fresh = await consoleRequest(t, 'enrolment/options', {
      body: { token: tokenOf(second.out) },
    });
    expect(fresh.status).toBe(200);
    const listed = await runAdminOn(t, 'operators', 'list');
    expect(listed.out).toMatch(/again@example\.test\s+support\s+invited/);
    const id = (await (
      await consoleRequest(t, 'enrolment/options', { body: { token: tokenOf(second.out) } })
    ).json()) as { options: { user: { id: string } } };
    const operatorId = Buffer.from(id.options.user.id, 'base64url').toString('utf8');
    expect((await events(operatorId)).map((event) => event.action)).toEqual([
      'operator.reinvited',
      'operator.role_changed',
      'operator.invited',
    ]);
    // An active operator is not invited again: their role changes in the console.
    const owner = await signedInOperator(t, 'viewer');
    const refused = await runAdminOn(t, 'operators', 'invite', owner.email, '--role', 'owner');
    expect(refused.code).toBe(1);
    expect(refused.err).toContain('is an active operator already');
  });

  it('signs in with the passkey, ends the session after 30 idle minutes, and signs out', async () => {
    const owner = await signedInOperator(t, 'support');
    const signIn = await signInWithPasskey(t, owner.authenticator, owner.passkey);
    expect(signIn.status).toBe(200);
    const session = sessionCookieOf(signIn) ?? '';
    expect(await (await consoleRequest(t, 'session', { session })).json()).toMatchObject({
      operator: { email: owner.email, role: 'support' },
    });

    // Each request starts the idle time again.
    advance(29 * MINUTE);
    expect((await consoleRequest(t, 'session', { session })).status).toBe(200);
    advance(29 * MINUTE);
    expect((await consoleRequest(t, 'session', { session })).status).toBe(200);
    advance(30 * MINUTE + 1000);
    const idle = await consoleRequest(t, 'session', { session });
    expect(idle.status).toBe(401);
    expect(await idle.json()).toMatchObject({ Error: 'ConsoleSessionRequired' });

    const fresh =
      sessionCookieOf(await signInWithPasskey(t, owner.authenticator, owner.passkey)) ?? '';
    const out = await consoleRequest(t, 'sign-out', { method: 'POST', session: fresh });
    expect(out.status).toBe(204);
    expect(out.headers.getSetCookie().join('\n')).toMatch(
      new RegExp(`${CONSOLE_SESSION_COOKIE}=;.*Max-Age=0`),
    );
    expect((await consoleRequest(t, 'session', { session: fresh })).status).toBe(401);
    const actions = (await events(owner.id)).map((event) => event.action);
    expect(actions.slice(0, 3)).toEqual([
      'operator.signed_out',
      'operator.signed_in',
      'operator.signed_in',
    ]);
  });

  it('audits a failed sign-in and refuses the eleventh attempt in 15 minutes', async () => {
    const operator = await signedInOperator(t, 'viewer');
    const failed = await signInWithPasskey(t, operator.authenticator, operator.passkey, {
      userVerified: false,
    });
    expect(failed.status).toBe(401);
    expect(await failed.json()).toMatchObject({ Error: 'SignInFailed' });
    expect(sessionCookieOf(failed)).toBeUndefined();
    const [event] = await events(operator.id);
    expect(event).toMatchObject({ action: 'operator.sign_in_failed' });
    expect(event?.details?.after).toMatchObject({ why: 'the passkey did not verify' });

    // A passkey no operator enrolled.
    const stranger = createSoftwareAuthenticator(t.deps.env.CONSOLE_ORIGIN);
    const { passkey } = stranger.register({
      challenge: 'x',
      rp: { id: 'localhost' },
      user: { id: 'x' },
    });
    expect((await signInWithPasskey(t, stranger, passkey)).status).toBe(401);

    // Every attempt counts (options and answers), per client: ten in 15 minutes.
    let last = 0;
    for (let attempt = 0; attempt < 12 && last !== 429; attempt += 1) {
      last = (await consoleRequest(t, 'sign-in/options', { method: 'POST' })).status;
    }
    expect(last).toBe(429);
    advance(15 * MINUTE);
  });

  it('ends every session of an operator `operators disable` names, and refuses their passkey', async () => {
    const operator = await signedInOperator(t, 'finance');
    const second =
      sessionCookieOf(await signInWithPasskey(t, operator.authenticator, operator.passkey)) ?? '';
    const disabled = await runAdminOn(t, 'operators', 'disable', operator.email);
    expect(disabled).toMatchObject({ code: 0 });
    expect(disabled.out).toContain('ended 2 sessions');
    expect((await operator.request('session')).status).toBe(401);
    expect((await consoleRequest(t, 'session', { session: second })).status).toBe(401);
    expect((await signInWithPasskey(t, operator.authenticator, operator.passkey)).status).toBe(401);
    const actions = (await events(operator.id)).map((event) => [
      event.action,
      event.details?.actor,
    ]);
    expect(actions[0]).toEqual(['operator.sign_in_failed', `operator:${operator.id}`]);
    expect(actions[1]).toEqual(['operator.disabled', cliActor]);
  });

  it('answers 401 without a session, 403 naming the permission with an authz.denied event', async () => {
    expect((await consoleRequest(t, 'operators')).status).toBe(401);
    const viewer = await signedInOperator(t, 'viewer');
    const denied = await viewer.request('operators', {
      body: { email: 'someone@example.test', role: 'owner' },
    });
    expect(denied.status).toBe(403);
    expect(await denied.json()).toEqual({
      Error: 'PermissionDenied',
      message: 'Your role (viewer) does not allow operator.invite.',
      permission: 'operator.invite',
    });
    const [event] = await createAuditLogRepository(t.deps.database.db).ofTarget(
      'permission',
      'operator.invite',
    );
    expect(event).toMatchObject({ action: 'authz.denied', actor: `operator:${viewer.id}` });
    expect(event?.details?.after).toMatchObject({
      method: 'POST',
      path: '/console/api/operators',
      role: 'viewer',
    });
    // Nothing was invited.
    expect((await runAdminOn(t, 'operators', 'list')).out).not.toContain('someone@example.test');
  });

  it('lets an owner invite, change a role and disable in the console, audited as the owner', async () => {
    const owner = await signedInOperator(t, 'owner');
    const invited = await owner.request('operators', {
      body: { email: 'new@example.test', role: 'support' },
    });
    expect(invited.status).toBe(201);
    const { operator, enrolmentUrl } = (await invited.json()) as {
      operator: { id: string };
      enrolmentUrl: string;
    };
    expect(enrolmentUrl).toMatch(/^http:\/\/localhost:3001\/console\/enrol\/[A-Za-z0-9_-]{32}$/);
    expect(
      (await owner.request('operators', { body: { email: 'bad', role: 'support' } })).status,
    ).toBe(400);
    expect(
      (await owner.request('operators', { body: { email: 'x@example.test', role: 'root' } }))
        .status,
    ).toBe(400);

    const changed = await owner.request(`operators/${operator.id}`, {
      method: 'PATCH',
      body: { role: 'finance' },
    });
    expect(changed.status).toBe(200);
    expect(await changed.json()).toMatchObject({ operator: { role: 'finance' } });
    expect(
      (await owner.request(`operators/${owner.id}`, { method: 'PATCH', body: { role: 'viewer' } }))
        .status,
    ).toBe(409);
    expect((await owner.request(`operators/not-an-id/disable`, { method: 'POST' })).status).toBe(
      404,
    );
    const disabled = await owner.request(`operators/${operator.id}/disable`, { method: 'POST' });
    expect(await disabled.json()).toMatchObject({ operator: { status: 'disabled' } });
    // Its link no longer works.
    const gone = await consoleRequest(t, 'enrolment/options', {
      body: { token: enrolmentTokenOf(enrolmentUrl) },
    });
    expect(gone.status).toBe(410);

    const list = (await (await owner.request('operators')).json()) as {
      operators: Array<{ email: string }>;
    };
    expect(list.operators.map((row) => row.email)).toContain('new@example.test');
    const trail = (await events(operator.id)).map((event) => [event.action, event.actor]);
    expect(trail).toEqual([
      ['operator.disabled', `operator:${owner.id}`],
      ['operator.role_changed', `operator:${owner.id}`],
      ['operator.invited', `operator:${owner.id}`],
    ]);
  });

  it('refuses console writes from another origin', async () => {
    const owner = await signedInOperator(t, 'owner');
    const foreign = await owner.request('sign-out', {
      method: 'POST',
      origin: 'https://evil.example',
    });
    expect(foreign.status).toBe(403);
    expect((await owner.request('session')).status).toBe(200);
  });

  it('asks for the passkey again for a step-up action after 5 minutes, and lets it through once verified', async () => {
    // A route as the licence actions will declare one: revoking asks for a recent check.
    const revoke = defineRoute({
      method: 'post',
      path: '/console/api/test/revoke',
      operationId: 'testRevoke',
      auth: { permission: 'licence.revoke' },
      tag: 'Test',
      summary: 'Revoke',
      responses: { 204: { description: 'Done.' } },
    });
    const app = new Hono<AppEnv>();
    app.use(async (c, next) => {
      c.set('requestId', 'test');
      await next();
    });
    app.use(consoleSession(consolePortsOf(t.deps)));
    revoke.handle(app, (c) => c.body(null, 204));
    const owner = await signedInOperator(t, 'owner');
    const call = () =>
      app.request('http://localhost:3001/console/api/test/revoke', {
        method: 'POST',
        headers: { Cookie: `${CONSOLE_SESSION_COOKIE}=${owner.session}` },
      });
    expect((await call()).status).toBe(204);
    advance(5 * MINUTE + 1000);
    const stale = await call();
    expect(stale.status).toBe(403);
    expect(await stale.json()).toMatchObject({ Error: 'RecentVerificationRequired' });

    const started = (await (
      await owner.request('session/verify/options', { method: 'POST' })
    ).json()) as {
      challengeId: string;
      options: { challenge: string; rpId: string; allowCredentials: Array<{ id: string }> };
    };
    expect(started.options.allowCredentials.map((credential) => credential.id)).toEqual([
      owner.passkey.credentialId,
    ]);
    // Another operator's passkey does not verify this operator.
    const other = await signedInOperator(t, 'support');
    const wrong = await owner.request('session/verify', {
      body: {
        challengeId: started.challengeId,
        response: other.authenticator.assert(started.options, other.passkey),
      },
    });
    expect(wrong.status).toBe(400);
    const again = (await (
      await owner.request('session/verify/options', { method: 'POST' })
    ).json()) as typeof started;
    const verified = await owner.request('session/verify', {
      body: {
        challengeId: again.challengeId,
        response: owner.authenticator.assert(again.options, owner.passkey),
      },
    });
    expect(verified.status).toBe(200);
    expect(await verified.json()).toMatchObject({ verifiedAt: now.toISOString() });
    expect((await call()).status).toBe(204);
    // A support operator's role does not grant revoking at all.
    const denied = await app.request('http://localhost:3001/console/api/test/revoke', {
      method: 'POST',
      headers: { Cookie: `${CONSOLE_SESSION_COOKIE}=${other.session}` },
    });
    expect(denied.status).toBe(403);
    expect(await denied.json()).toMatchObject({ permission: 'licence.revoke' });
  });
});
