import { afterAll, beforeAll } from 'vitest';
import { startSmtpSink, type SmtpSink } from '#tests/support/smtp-sink.ts';

/**
 * The SMTP sink of a fault file's tests: started in `beforeAll` on the file's own port, closed in
 * `afterAll`. Call it in the `describe`; the sink it returns is usable from the tests on.
 */
export function useSmtpSink(options: Parameters<typeof startSmtpSink>[0]): SmtpSink {
  let started: SmtpSink | undefined;
  beforeAll(async () => {
    started = await startSmtpSink(options);
  });
  afterAll(() => started?.close());
  const sink = () => {
    if (!started) throw new Error('the SMTP sink starts in beforeAll');
    return started;
  };
  return {
    get port() {
      return sink().port;
    },
    get url() {
      return sink().url;
    },
    get messages() {
      return sink().messages;
    },
    waitForMail: (match, timeoutMs) => sink().waitForMail(match, timeoutMs),
    mailsFor: (match) => sink().mailsFor(match),
    stop: () => sink().stop(),
    start: () => sink().start(),
    close: () => sink().close(),
  };
}
