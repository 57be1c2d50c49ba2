import type { PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/browser';
import { CONSOLE_API } from '#shared/console/paths.ts';

/** An answer of the console's API: its status and JSON body (null without one). */
export interface ConsoleAnswer {
  status: number;
  body: unknown;
}

/**
 * The console pages' one way to call `/console/api/…` (decision 226): same origin, JSON, the
 * session cookie sent by the browser (it is HttpOnly: scripts never see it). A 401 means the
 * session ended: the page goes to the sign-in page.
 */
export async function consoleApi(
  path: string,
  init: { method?: string; body?: unknown } = {},
): Promise<ConsoleAnswer> {
  const response = await fetch(`${CONSOLE_API}/${path}`, {
    method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
    credentials: 'same-origin',
    headers: init.body === undefined ? {} : { 'Content-Type': 'application/json' },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
  const text = await response.text();
  return { status: response.status, body: parseJson(text) };
}

function parseJson(text: string): unknown {
  try {
    return text ? JSON.parse(text) : null;
  } catch {
    return null;
  }
}

/** The `message` of an error answer, or `fallback`. */
export function messageOf(answer: ConsoleAnswer, fallback: string): string {
  const { body } = answer;
  if (typeof body === 'object' && body !== null && 'message' in body) {
    const message = (body as { message: unknown }).message;
    if (typeof message === 'string') return message;
  }
  return fallback;
}

/** The browser refused or the person cancelled the passkey prompt. */
export const passkeyCancelled =
  'The passkey prompt was closed before it finished. Try again when you are ready.';

/**
 * Proves the signed-in operator's passkey again (step-up) for an action the server answered
 * `RecentVerificationRequired`: the ceremony's code loads only when it is needed.
 */
export async function verifyAgain(): Promise<boolean> {
  const started = await consoleApi('session/verify/options', { method: 'POST' });
  if (started.status !== 200) return false;
  const { challengeId, options } = started.body as {
    challengeId: string;
    options: PublicKeyCredentialRequestOptionsJSON;
  };
  const { startAuthentication } = await import('@simplewebauthn/browser');
  const response = await startAuthentication({ optionsJSON: options });
  const verified = await consoleApi('session/verify', { body: { challengeId, response } });
  return verified.status === 200;
}

/**
 * Runs a console action that may ask for the passkey again: on `RecentVerificationRequired` the
 * operator proves it, and the action is sent once more.
 */
export async function withStepUp(action: () => Promise<ConsoleAnswer>): Promise<ConsoleAnswer> {
  const first = await action();
  const code =
    typeof first.body === 'object' && first.body !== null && 'Error' in first.body
      ? (first.body as { Error: unknown }).Error
      : undefined;
  if (first.status !== 403 || code !== 'RecentVerificationRequired') return first;
  return (await verifyAgain()) ? action() : first;
}
