import { Hono, type Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { z } from 'zod';
import {
  CONSOLE_API,
  CONSOLE_SESSION_COOKIE,
  changeRoleRequestSchema,
  consoleErrorCodes,
  consoleMessages,
  enrolmentOptionsRequestSchema,
  enrolmentRequestSchema,
  inviteOperatorRequestSchema,
  passkeyAnswerRequestSchema,
  sessionSchema,
  type ConsoleSessionView,
} from '#shared/contracts/console.ts';
import {
  consoleSessionErrorSchema,
  errorBodySchema,
  invalidRequestErrorSchema,
  noQueryParameters,
  tooManyRequestsErrorSchema,
} from '#server/platform/api-doc/common-errors.ts';
import { defineRoute, defineRoutes } from '#server/platform/api-doc/define-route.ts';
import type { AppEnv } from '#server/platform/http/types.ts';
import { rateLimitClient } from '#server/platform/rate-limit/client-ip.ts';
import { enforceRateLimits } from '#server/platform/rate-limit/enforce-rate-limits.ts';
import { rateLimitRules } from '#server/platform/rate-limit/rate-limit-rules.ts';
import type { SignedInOperator } from '#server/platform/route-auth/signed-in-operator.ts';
import type { FeaturePorts } from '../feature-ports.ts';
import { consolePortsOf } from './console-ports.ts';
import {
  changeOperatorRole,
  disableOperator,
  inviteOperator,
  listOperators,
} from './manage-operators.ts';
import {
  completeEnrolment,
  completeSignIn,
  completeStepUp,
  enrolmentOptions,
  signInOptions,
  signOut,
  stepUpOptions,
} from './operator-sessions.ts';

const ceremonySchema = z.object({
  challengeId: z.uuid(),
  options: z.record(z.string(), z.unknown()).describe('The WebAuthn options, as JSON.'),
});
const denied = {
  403: {
    description: 'PermissionDenied: the role lacks the permission (named).',
    schema: errorBodySchema,
  },
  401: { description: 'No console session.', schema: consoleSessionErrorSchema },
};
const tag = 'Operator console';

const sessionRoute = defineRoute({
  method: 'get',
  path: `${CONSOLE_API}/session`,
  auth: 'consoleSession',
  operationId: 'readConsoleSession',
  tag,
  summary: 'Who is signed in: the operator, their role and permissions',
  responses: {
    200: { description: 'The signed-in operator.', schema: sessionSchema },
    401: denied[401],
  },
});

const signInOptionsRoute = defineRoute({
  method: 'post',
  path: `${CONSOLE_API}/sign-in/options`,
  auth: 'public',
  operationId: 'consoleSignInOptions',
  tag,
  summary: 'Start a passkey sign-in: the challenge, kept server-side for 5 minutes',
  responses: {
    200: { description: 'The options for navigator.credentials.get().', schema: ceremonySchema },
    429: { description: 'Too many sign-in attempts.', schema: tooManyRequestsErrorSchema },
  },
});

const signInRoute = defineRoute({
  method: 'post',
  path: `${CONSOLE_API}/sign-in`,
  auth: 'public',
  operationId: 'consoleSignIn',
  tag,
  summary: 'Sign in with a passkey (user verification required); sets the session cookie',
  request: { body: passkeyAnswerRequestSchema },
  responses: {
    200: { description: 'Signed in.', schema: sessionSchema },
    400: { description: 'Malformed answer.', schema: invalidRequestErrorSchema },
    401: {
      description: 'SignInFailed: the passkey signs in no active operator.',
      schema: errorBodySchema,
    },
    429: { description: 'Too many sign-in attempts.', schema: tooManyRequestsErrorSchema },
  },
});

const enrolmentOptionsRoute = defineRoute({
  method: 'post',
  path: `${CONSOLE_API}/enrolment/options`,
  auth: 'public',
  operationId: 'consoleEnrolmentOptions',
  tag,
  summary: "An enrolment link's passkey-creation options",
  request: { body: enrolmentOptionsRequestSchema },
  responses: {
    200: { description: 'The options for navigator.credentials.create().', schema: ceremonySchema },
    400: { description: 'Malformed token.', schema: invalidRequestErrorSchema },
    404: { description: 'EnrolmentLinkUnknown.', schema: errorBodySchema },
    410: {
      description: 'EnrolmentLinkGone: used, replaced or older than 24 hours.',
      schema: errorBodySchema,
    },
    429: { description: 'Too many attempts.', schema: tooManyRequestsErrorSchema },
  },
});

const enrolRoute = defineRoute({
  method: 'post',
  path: `${CONSOLE_API}/enrolment`,
  auth: 'public',
  operationId: 'consoleEnrol',
  tag,
  summary: 'Create the passkey of an enrolment link (once) and sign in',
  request: { body: enrolmentRequestSchema },
  responses: {
    201: { description: 'Enrolled and signed in.', schema: sessionSchema },
    400: { description: 'Malformed answer, or PasskeyCheckFailed.', schema: errorBodySchema },
    404: { description: 'EnrolmentLinkUnknown.', schema: errorBodySchema },
    410: { description: 'EnrolmentLinkGone.', schema: errorBodySchema },
    429: { description: 'Too many attempts.', schema: tooManyRequestsErrorSchema },
  },
});

const signOutRoute = defineRoute({
  method: 'post',
  path: `${CONSOLE_API}/sign-out`,
  auth: 'consoleSession',
  operationId: 'consoleSignOut',
  tag,
  summary: 'End this session',
  responses: { 204: { description: 'Signed out.' }, 401: denied[401] },
});

const stepUpOptionsRoute = defineRoute({
  method: 'post',
  path: `${CONSOLE_API}/session/verify/options`,
  auth: 'consoleSession',
  operationId: 'consoleStepUpOptions',
  tag,
  summary: "Start proving the signed-in operator's passkey again (step-up)",
  responses: {
    200: { description: 'The options for navigator.credentials.get().', schema: ceremonySchema },
    401: denied[401],
  },
});

const stepUpRoute = defineRoute({
  method: 'post',
  path: `${CONSOLE_API}/session/verify`,
  auth: 'consoleSession',
  operationId: 'consoleStepUp',
  tag,
  summary:
    'Prove the passkey again: actions that move money or end a licence go through for 5 minutes',
  request: { body: passkeyAnswerRequestSchema },
  responses: {
    200: { description: 'Verified now.', schema: sessionSchema },
    400: { description: 'Malformed answer, or PasskeyCheckFailed.', schema: errorBodySchema },
    401: denied[401],
  },
});

const listOperatorsRoute = defineRoute({
  method: 'get',
  path: `${CONSOLE_API}/operators`,
  auth: { permission: 'operator.manage' },
  operationId: 'listOperators',
  tag,
  summary: 'Every operator, with role and status',
  responses: {
    200: { description: 'The operators.', schema: z.object({ operators: z.array(z.unknown()) }) },
    ...denied,
  },
});

const inviteOperatorRoute = defineRoute({
  method: 'post',
  path: `${CONSOLE_API}/operators`,
  auth: { permission: 'operator.invite' },
  operationId: 'inviteOperator',
  tag,
  summary: 'Invite an operator: a one-time enrolment link, valid 24 hours',
  request: { body: inviteOperatorRequestSchema },
  responses: {
    201: {
      description: 'Invited; the link is shown this once.',
      schema: z.object({ operator: z.unknown(), enrolmentUrl: z.url(), expiresAt: z.string() }),
    },
    400: { description: 'Malformed address or role.', schema: invalidRequestErrorSchema },
    409: {
      description: 'OperatorExists: an active operator has this address.',
      schema: errorBodySchema,
    },
    ...denied,
  },
});

const changeRoleRoute = defineRoute({
  method: 'patch',
  path: `${CONSOLE_API}/operators/:id`,
  auth: { permission: 'operator.manage' },
  operationId: 'changeOperatorRole',
  tag,
  summary: "Change an operator's role",
  request: { body: changeRoleRequestSchema },
  responses: {
    200: { description: 'The operator now.', schema: z.object({ operator: z.unknown() }) },
    400: { description: 'Malformed role.', schema: invalidRequestErrorSchema },
    404: { description: 'OperatorNotFound.', schema: errorBodySchema },
    409: { description: 'LastOwner or OwnAccount.', schema: errorBodySchema },
    ...denied,
  },
});

const disableOperatorRoute = defineRoute({
  method: 'post',
  path: `${CONSOLE_API}/operators/:id/disable`,
  auth: { permission: 'operator.manage' },
  operationId: 'disableOperator',
  tag,
  summary: 'Disable an operator: no more sign-ins, every session ends',
  responses: {
    200: { description: 'The operator now.', schema: z.object({ operator: z.unknown() }) },
    404: { description: 'OperatorNotFound.', schema: errorBodySchema },
    409: { description: 'LastOwner or OwnAccount.', schema: errorBodySchema },
    ...denied,
  },
});

/** The console's routes, in the order they are registered. */
export const consoleRouteDefinitions = [
  sessionRoute,
  signInOptionsRoute,
  signInRoute,
  enrolmentOptionsRoute,
  enrolRoute,
  signOutRoute,
  stepUpOptionsRoute,
  stepUpRoute,
  listOperatorsRoute,
  inviteOperatorRoute,
  changeRoleRoute,
  disableOperatorRoute,
];

/**
 * The console routes that need no permission, and why (decision 226): `console-routes.test.ts`
 * fails for any other console route without `{ permission }`.
 */
export const consoleRoutesWithoutPermission: Readonly<Record<string, string>> = {
  readConsoleSession: 'Who is signed in: any operator, about their own session.',
  consoleSignInOptions: 'Before sign-in: the passkey ceremony is the credential.',
  consoleSignIn: 'Before sign-in: the passkey ceremony is the credential.',
  consoleEnrolmentOptions: 'Before sign-in: the enrolment link is the credential.',
  consoleEnrol: 'Before sign-in: the enrolment link and the new passkey are the credential.',
  consoleSignOut: 'Any operator ends their own session.',
  consoleStepUpOptions: 'Any operator proves their own passkey again.',
  consoleStepUp: 'Any operator proves their own passkey again.',
};

/** The cookie of a new session: host-only, HTTPS-only, never cross-site; it ends with the browser. */
export function setSessionCookie(c: Context<AppEnv>, token: string): void {
  setCookie(c, CONSOLE_SESSION_COOKIE, token, {
    path: '/',
    secure: true,
    httpOnly: true,
    sameSite: 'Strict',
  });
}

export function sessionTokenOf(c: Context<AppEnv>): string | undefined {
  return getCookie(c, CONSOLE_SESSION_COOKIE);
}

export function sessionView(operator: SignedInOperator): ConsoleSessionView {
  return {
    operator: {
      id: operator.id,
      email: operator.email,
      role: operator.role,
      permissions: [...operator.permissions],
    },
    verifiedAt: operator.verifiedAt.toISOString(),
  };
}

const problem = (code: keyof typeof consoleErrorCodes & keyof typeof consoleMessages) => ({
  Error: consoleErrorCodes[code],
  message: consoleMessages[code],
});

const statusOf = {
  signInFailed: 401,
  enrolmentLinkUnknown: 404,
  enrolmentLinkGone: 410,
  passkeyCheckFailed: 400,
  operatorExists: 409,
  operatorNotFound: 404,
  lastOwner: 409,
  ownAccount: 409,
} as const;

/** The operator console's JSON API, served only by the console listener (decision 226). */
export const consoleRoutes = defineRoutes(consoleRouteDefinitions, (deps: FeaturePorts) => {
  const app = new Hono<AppEnv>();
  const ports = consolePortsOf(deps);
  // Nothing the console answers may be kept by a cache.
  app.use(`${CONSOLE_API}/*`, async (c, next) => {
    await next();
    c.header('Cache-Control', 'no-store');
  });
  const limited = (c: Context<AppEnv>, rule: typeof rateLimitRules.consoleSignInPerIp) =>
    enforceRateLimits(c, deps.rateLimiter, [{ rule, subject: rateLimitClient(c) }]);
  const refuse = (c: Context<AppEnv>, code: keyof typeof statusOf) =>
    c.json(problem(code), statusOf[code]);
  const operatorOf = (c: Context<AppEnv>): SignedInOperator => {
    const operator = c.get('operator');
    // The route's guard let the request through: there is an operator.
    if (!operator) throw new Error('a console route ran without its guard');
    return operator;
  };

  sessionRoute.handle(app, noQueryParameters, (c) => c.json(sessionView(operatorOf(c))));

  signInOptionsRoute.handle(app, noQueryParameters, async (c) => {
    const refused = await limited(c, rateLimitRules.consoleSignInPerIp);
    if (refused) return refused;
    return c.json(await signInOptions(ports));
  });

  signInRoute.handle(app, noQueryParameters, async (c, input) => {
    const refused = await limited(c, rateLimitRules.consoleSignInPerIp);
    if (refused) return refused;
    const body = await input.body();
    if (!body.ok) return body.response;
    const result = await completeSignIn(ports, body.value);
    if (!result.ok) return refuse(c, result.code);
    setSessionCookie(c, result.sessionToken);
    return c.json(sessionView(result.operator));
  });

  enrolmentOptionsRoute.handle(app, noQueryParameters, async (c, input) => {
    const refused = await limited(c, rateLimitRules.consoleEnrolPerIp);
    if (refused) return refused;
    const body = await input.body();
    if (!body.ok) return body.response;
    const result = await enrolmentOptions(ports, body.value.token);
    if (!result.ok) return refuse(c, result.code);
    return c.json(result);
  });

  enrolRoute.handle(app, noQueryParameters, async (c, input) => {
    const refused = await limited(c, rateLimitRules.consoleEnrolPerIp);
    if (refused) return refused;
    const body = await input.body();
    if (!body.ok) return body.response;
    const result = await completeEnrolment(ports, body.value);
    if (!result.ok) return refuse(c, result.code);
    setSessionCookie(c, result.sessionToken);
    return c.json(sessionView(result.operator), 201);
  });

  signOutRoute.handle(app, noQueryParameters, async (c) => {
    const token = sessionTokenOf(c);
    if (token) await signOut(ports, token);
    deleteCookie(c, CONSOLE_SESSION_COOKIE, { path: '/', secure: true });
    return c.body(null, 204);
  });

  stepUpOptionsRoute.handle(app, noQueryParameters, async (c) =>
    c.json(await stepUpOptions(ports, operatorOf(c))),
  );

  stepUpRoute.handle(app, noQueryParameters, async (c, input) => {
    const body = await input.body();
    if (!body.ok) return body.response;
    const operator = operatorOf(c);
    const result = await completeStepUp(ports, operator, sessionTokenOf(c) ?? '', body.value);
    if (!result.ok) return refuse(c, result.code);
    return c.json(sessionView({ ...operator, verifiedAt: result.verifiedAt }));
  });

  listOperatorsRoute.handle(app, noQueryParameters, async (c) =>
    c.json({ operators: await listOperators(ports) }),
  );

  inviteOperatorRoute.handle(app, noQueryParameters, async (c, input) => {
    const body = await input.body();
    if (!body.ok) return body.response;
    const result = await inviteOperator(ports, body.value);
    if (!result.ok) return refuse(c, result.code);
    return c.json(
      {
        operator: result.operator,
        enrolmentUrl: result.enrolmentUrl,
        expiresAt: result.expiresAt.toISOString(),
      },
      201,
    );
  });

  changeRoleRoute.handle(app, noQueryParameters, async (c, input) => {
    const body = await input.body();
    if (!body.ok) return body.response;
    const result = await changeOperatorRole(
      ports,
      { operatorId: operatorOf(c).id },
      { id: c.req.param('id') },
      body.value.role,
    );
    if (!result.ok) return refuse(c, result.code);
    return c.json({ operator: result.operator });
  });

  disableOperatorRoute.handle(app, noQueryParameters, async (c) => {
    const result = await disableOperator(
      ports,
      { operatorId: operatorOf(c).id },
      { id: c.req.param('id') },
    );
    if (!result.ok) return refuse(c, result.code);
    return c.json({ operator: result.operator });
  });

  return app;
});
