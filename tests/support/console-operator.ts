import { inviteOperator } from '#server/features/console/manage-operators.ts';
import { consolePortsOf } from '#server/features/console/console-ports.ts';
import { CONSOLE_API, CONSOLE_SESSION_COOKIE } from '#shared/contracts/console.ts';
import type { Role } from '#shared/console/permissions.ts';
import {
  createSoftwareAuthenticator,
  type SoftwareAuthenticator,
  type SoftwarePasskey,
} from './software-authenticator.ts';
import type { TestApp } from './test-app.ts';

/**
 * API tests' way to a signed-in operator of the console (decision 226): the operator is invited
 * by the same service `operators invite` uses, and enrols through the console's real enrolment
 * endpoints with a software passkey — no shortcut into the session table, none in production
 * code. The returned `request` sends the session cookie and the console's Origin.
 */
export interface ConsoleTestOperator {
  id: string;
  email: string;
  role: Role;
  /** The session cookie's token. */
  session: string;
  passkey: SoftwarePasskey;
  authenticator: SoftwareAuthenticator;
  /** A request to the console app as this operator's browser would send it. */
  request(path: string, init?: ConsoleRequestInit): Promise<Response>;
}

export interface ConsoleRequestInit {
  method?: string;
  body?: unknown;
  /** Another session token, or null for none. */
  session?: string | null;
  origin?: string;
}

/** A request to the console app: JSON body, the console's Origin, the session cookie if any. */
export function consoleRequest(
  testApp: TestApp,
  path: string,
  init: ConsoleRequestInit = {},
): Promise<Response> {
  const origin = testApp.deps.env.CONSOLE_ORIGIN;
  const headers: Record<string, string> = { Origin: init.origin ?? origin };
  if (init.session) headers.Cookie = `${CONSOLE_SESSION_COOKIE}=${init.session}`;
  if (init.body !== undefined) headers['Content-Type'] = 'application/json';
  const url = path.startsWith('/') ? `${origin}${path}` : `${origin}${CONSOLE_API}/${path}`;
  return Promise.resolve(
    testApp.consoleApp.request(url, {
      method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
      headers,
      ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
    }),
  );
}

/** The session token a response's `Set-Cookie` sets, if any. */
export function sessionCookieOf(response: Response): string | undefined {
  for (const cookie of response.headers.getSetCookie()) {
    const match = new RegExp(`^${CONSOLE_SESSION_COOKIE}=([^;]*)`).exec(cookie);
    if (match?.[1]) return match[1];
  }
  return undefined;
}

/** The token of an enrolment URL (`…/console/enrol/<token>`). */
export function enrolmentTokenOf(url: string): string {
  return url.slice(url.lastIndexOf('/') + 1);
}

async function json<T>(response: Response, status: number): Promise<T> {
  if (response.status !== status) {
    throw new Error(`expected ${status}, got ${response.status}: ${await response.text()}`);
  }
  return (await response.json()) as T;
}

/** Enrols the invitation's token with a new software passkey; the answer as sent. */
export async function enrolWithPasskey(
  testApp: TestApp,
  authenticator: SoftwareAuthenticator,
  token: string,
) {
  const started = await json<{
    challengeId: string;
    options: { challenge: string; rp: { id: string }; user: { id: string } };
  }>(await consoleRequest(testApp, 'enrolment/options', { body: { token } }), 200);
  const { response, passkey } = authenticator.register(started.options);
  const answer = await consoleRequest(testApp, 'enrolment', {
    body: { token, challengeId: started.challengeId, response },
  });
  return { answer, passkey };
}

/** Signs in with `passkey`: the answer as sent. */
export async function signInWithPasskey(
  testApp: TestApp,
  authenticator: SoftwareAuthenticator,
  passkey: SoftwarePasskey,
  tweak: { userVerified?: boolean } = {},
): Promise<Response> {
  const started = await json<{ challengeId: string; options: { challenge: string; rpId: string } }>(
    await consoleRequest(testApp, 'sign-in/options', { method: 'POST' }),
    200,
  );
  return consoleRequest(testApp, 'sign-in', {
    body: {
      challengeId: started.challengeId,
      response: authenticator.assert(started.options, passkey, tweak),
    },
  });
}

let counter = 0;

/** An operator of `role`, invited, enrolled with a software passkey and signed in. */
export async function signedInOperator(
  testApp: TestApp,
  role: Role,
  email = `${role}-${++counter}@orgsmith.test`,
): Promise<ConsoleTestOperator> {
  const invited = await inviteOperator(consolePortsOf(testApp.deps), { email, role });
  if (!invited.ok) throw new Error(`cannot invite ${email}: ${invited.code}`);
  const authenticator = createSoftwareAuthenticator(testApp.deps.env.CONSOLE_ORIGIN);
  const { answer, passkey } = await enrolWithPasskey(
    testApp,
    authenticator,
    enrolmentTokenOf(invited.enrolmentUrl),
  );
  const body = await json<{ operator: { id: string } }>(answer, 201);
  const session = sessionCookieOf(answer);
  if (!session) throw new Error('the enrolment set no session cookie');
  return {
    id: body.operator.id,
    email,
    role,
    session,
    passkey,
    authenticator,
    request: (path, init = {}) => consoleRequest(testApp, path, { session, ...init }),
  };
}
