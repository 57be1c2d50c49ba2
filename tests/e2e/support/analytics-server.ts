import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, type Page } from '@playwright/test';
import { SERVER_ENTRY, SERVER_NODE_FLAGS } from '#server/platform/node-flags.ts';
import { seedEmbeddedDatabase } from '#tests/support/databases.ts';
import { freePort } from '#tests/support/free-port.ts';

/**
 * A server of its own with `GA_MEASUREMENT_ID` set (the e2e server runs without analytics), and
 * every request that leaves the site captured. gtag.js cannot be downloaded here: a stand-in takes
 * its place that, like gtag, reads `window.dataLayer` and sends each hit to Google Analytics with
 * `dl`/`dr`/`dt` taken from `page_location`/`page_referrer`/`page_title`, or — as gtag does when
 * they are missing — from `document.location`, `document.referrer` and `document.title`; and, as
 * gtag does once analytics storage is granted, writes its `_ga` and `_ga_<id>` cookies.
 */
export const MEASUREMENT_ID = 'G-TEST123';
export const COLLECT = 'https://region1.google-analytics.com/g/collect';

export const gtagStandIn = `(() => {
  const layer = (window.dataLayer = window.dataLayer || []);
  const settings = {};
  let measurementId = '';
  const hit = (name, params) => {
    const all = { ...settings, ...params };
    const query = new URLSearchParams({
      v: '2',
      tid: measurementId,
      en: name,
      dl: all.page_location ?? document.location.href,
      dr: all.page_referrer ?? document.referrer,
      dt: all.page_title ?? document.title,
    });
    for (const [key, value] of Object.entries(params ?? {})) {
      if (!key.startsWith('page_')) query.set('ep.' + key, String(value));
    }
    fetch('${COLLECT}?' + query, { method: 'POST', mode: 'no-cors', keepalive: true, body: '' });
  };
  const handle = (entry) => {
    const [command, first, second] = Array.from(entry);
    if (command === 'set' && typeof first === 'object') Object.assign(settings, first);
    if (command === 'config') {
      measurementId = first;
      Object.assign(settings, second ?? {});
      if (settings.send_page_view !== false) hit('page_view', {});
    }
    if (command === 'event') hit(first, second);
    if (command === 'consent' && first === 'update' && second?.analytics_storage === 'granted') {
      const year = 'Path=/; Max-Age=31536000';
      document.cookie = '_ga=GA1.1.1234567890.1700000000; ' + year;
      document.cookie = '_ga_' + measurementId.slice(2) + '=GS1.1.1700000000.1.0; ' + year;
    }
  };
  for (const entry of layer) handle(entry);
  const push = layer.push.bind(layer);
  layer.push = (...entries) => {
    const length = push(...entries);
    for (const entry of entries) handle(entry);
    return length;
  };
})();`;

export interface SentRequest {
  url: string;
  body: string;
  referer: string;
}

export interface AnalyticsServer {
  baseUrl: string;
  stop(): Promise<void>;
}

export async function startAnalyticsServer(): Promise<AnalyticsServer> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'orgsmith-e2e-analytics-'));
  await seedEmbeddedDatabase(dataDir);
  const port = await freePort();
  const baseUrl = `http://localhost:${port}`;
  const server: ChildProcess = spawn(process.execPath, [...SERVER_NODE_FLAGS, SERVER_ENTRY], {
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      ...process.env,
      PORT: String(port),
      CONSOLE_PORT: String(await freePort()),
      PUBLIC_BASE_URL: baseUrl,
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      SMTP_URL: '',
      LOG_LEVEL: 'warn',
      GA_MEASUREMENT_ID: MEASUREMENT_ID,
    },
  });
  await expect
    .poll(async () => (await fetch(`${baseUrl}/healthz`).catch(() => undefined))?.status, {
      timeout: 90_000,
    })
    .toBe(200);
  return {
    baseUrl,
    async stop() {
      if (server.exitCode === null) {
        const exited = new Promise((resolve) => server.once('exit', resolve));
        server.kill('SIGTERM');
        await exited;
      }
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** Every request that leaves for another host, answered here; gtag.js by the stand-in. */
export async function captureThirdParties(page: Page, baseUrl: string): Promise<SentRequest[]> {
  const sent: SentRequest[] = [];
  await page.route(
    (url) => url.origin !== new URL(baseUrl).origin,
    async (route) => {
      const request = route.request();
      sent.push({
        url: request.url(),
        body: request.postData() ?? '',
        referer: (await request.allHeaders())['referer'] ?? '',
      });
      if (request.url().startsWith('https://www.googletagmanager.com/gtag/js')) {
        return route.fulfill({ contentType: 'text/javascript', body: gtagStandIn });
      }
      return route.fulfill({ status: 204, body: '' });
    },
  );
  return sent;
}

/** The hits sent to Google Analytics, as the parameters of each. */
export function hits(sent: SentRequest[]): URLSearchParams[] {
  return sent.filter((r) => r.url.startsWith(COLLECT)).map((r) => new URL(r.url).searchParams);
}
