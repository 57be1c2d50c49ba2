import type { ReceivedMail, SmtpSink } from '#tests/support/smtp-sink.ts';

/** One public request that promises an e-mail: a contact message or a trial licence. */
export interface Submission {
  n: number;
  kind: 'contact' | 'trial';
  email: string;
  /** A distinct public client address per request, so per-IP limits never interfere. */
  ip: string;
}

export interface Outcome {
  submission: Submission;
  /** HTTP status, or 0 when the connection failed (refused, reset, timed out). */
  status: number;
  ms: number;
  body: string;
}

const CSRF = 'fault-test-csrf-token';

export function submissions(run: string, count: number): Submission[] {
  return Array.from({ length: count }, (_, n) => ({
    n,
    kind: n % 2 === 0 ? 'contact' : 'trial',
    email: `${run}-${n}@example.com`,
    ip: `198.51.${100 + Math.floor(n / 250)}.${(n % 250) + 1}`,
  }));
}

/** Sends one submission the way the site's forms do (CSRF cookie and header). */
export async function send(
  baseUrl: string,
  submission: Submission,
  timeoutMs = 15_000,
): Promise<Outcome> {
  const started = Date.now();
  const headers = {
    Cookie: `XSRF-TOKEN=${CSRF}`,
    'X-XSRF-TOKEN': CSRF,
    'X-Forwarded-For': submission.ip,
    'Content-Type': 'application/json',
  };
  const request =
    submission.kind === 'contact'
      ? fetch(`${baseUrl}/api/submitContactForm`, {
          method: 'POST',
          headers,
          body: JSON.stringify({
            name: `Visitor ${submission.n}`,
            emailAddress: submission.email,
            message: `Fault test message ${submission.n}`,
          }),
          signal: AbortSignal.timeout(timeoutMs),
        })
      : fetch(
          `${baseUrl}/account/v1/licenses/trial?${new URLSearchParams({
            emailAddress: submission.email,
            productId: 'orgsmith-cli',
          })}`,
          { method: 'POST', headers, signal: AbortSignal.timeout(timeoutMs) },
        );
  try {
    const res = await request;
    const body = await res.text();
    return { submission, status: res.status, ms: Date.now() - started, body };
  } catch (error) {
    const body = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    return { submission, status: 0, ms: Date.now() - started, body };
  }
}

/**
 * Sends every submission with `concurrency` in flight; `target(n)` picks the instance's URL.
 * `onOutcome` sees each result as it arrives (to kill an instance mid-run).
 */
export async function runLoad(options: {
  submissions: readonly Submission[];
  concurrency: number;
  target: (submission: Submission) => string;
  onOutcome?: (outcome: Outcome, done: readonly Outcome[]) => void | Promise<void>;
  timeoutMs?: number;
}): Promise<Outcome[]> {
  const done: Outcome[] = [];
  let next = 0;
  async function lane() {
    while (next < options.submissions.length) {
      const submission = options.submissions[next++] as Submission;
      const outcome = await send(options.target(submission), submission, options.timeoutMs);
      done.push(outcome);
      await options.onOutcome?.(outcome, done);
    }
  }
  await Promise.all(Array.from({ length: options.concurrency }, lane));
  return done.sort((a, b) => a.submission.n - b.submission.n);
}

export const acknowledged = (outcomes: readonly Outcome[]) =>
  outcomes.filter((outcome) => outcome.status === 204);

/** The e-mails a submission caused: the support copy of a contact message, or the trial key. */
export function mailsOf(sink: SmtpSink, submission: Submission): ReceivedMail[] {
  const address = submission.email.toLowerCase();
  return sink.messages.filter((mail) =>
    submission.kind === 'contact'
      ? mail.replyTo.toLowerCase().includes(address)
      : mail.to.some((to) => to.toLowerCase() === address),
  );
}

/** Waits until every acknowledged submission has its e-mail; returns the seconds it took. */
export async function waitForMail(
  sink: SmtpSink,
  expected: readonly Submission[],
  timeoutMs: number,
): Promise<{ seconds: number; missing: Submission[] }> {
  const started = Date.now();
  for (;;) {
    const missing = expected.filter((submission) => mailsOf(sink, submission).length === 0);
    if (missing.length === 0 || Date.now() - started > timeoutMs) {
      return { seconds: (Date.now() - started) / 1000, missing };
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** Acknowledged, lost and duplicated counts, as the fault tests print them. */
export function tally(sink: SmtpSink, acked: readonly Submission[]) {
  let lost = 0;
  let duplicated = 0;
  for (const submission of acked) {
    const mails = mailsOf(sink, submission);
    if (mails.length === 0) lost += 1;
    if (mails.length > 1) duplicated += 1;
  }
  return { acknowledged: acked.length, lost, duplicated };
}

/** Message-ids the sink received more than once: the same outbox message sent twice. */
export function repeatedMessageIds(sink: SmtpSink): string[] {
  const seen = new Map<string, number>();
  for (const mail of sink.messages) seen.set(mail.messageId, (seen.get(mail.messageId) ?? 0) + 1);
  return [...seen].filter(([, count]) => count > 1).map(([id]) => id);
}

/** One line of figures for the report (the test output and the note). */
export function report(name: string, figures: Record<string, number | string>): void {
  const parts = Object.entries(figures).map(([key, value]) => `${key}=${value}`);
  console.log(`[faults] ${name}: ${parts.join(' ')}`);
}
