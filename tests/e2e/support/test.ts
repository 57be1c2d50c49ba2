import { test as base } from '@playwright/test';
import { startE2eServer, type E2eServer } from './e2e-server.ts';
import { startSmtpSink, type SmtpSink } from '#tests/support/smtp-sink.ts';
import { startViesFake, type ViesFake } from '#tests/support/vies-fake.ts';

// Everything else of Playwright's test API, unchanged.
export * from '@playwright/test';

/**
 * Playwright's `test` with a production server and an SMTP sink per worker (decision 170). Every
 * spec imports `test` from here: `baseURL` is the worker's server, and `smtpSink` holds the e-mails
 * that server sent (reachable from `beforeAll` too, being worker-scoped); `viesFake` answers its VIES
 * questions. Workers run side by side
 * without sharing a port, a data directory or a mailbox.
 */
export const test = base.extend<
  Record<never, never>,
  { smtpSink: SmtpSink; viesFake: ViesFake; e2eServer: E2eServer }
>({
  smtpSink: [
    // eslint-disable-next-line no-empty-pattern -- Playwright reads the fixtures a function destructures
    async ({}, provide) => {
      const sink = await startSmtpSink();
      await provide(sink);
      await sink.close();
    },
    { scope: 'worker' },
  ],
  viesFake: [
    // eslint-disable-next-line no-empty-pattern -- Playwright reads the fixtures a function destructures
    async ({}, provide) => {
      const vies = await startViesFake();
      await provide(vies);
      await vies.close();
    },
    { scope: 'worker' },
  ],
  e2eServer: [
    async ({ smtpSink, viesFake }, provide) => {
      const server = await startE2eServer({ smtpUrl: smtpSink.url, viesUrl: viesFake.url });
      await provide(server);
      await server.stop();
    },
    // The server answers /healthz within a few seconds; a loaded machine gets a minute.
    { scope: 'worker', timeout: 90_000 },
  ],
  baseURL: async ({ e2eServer }, provide) => {
    await provide(e2eServer.baseURL);
  },
});
