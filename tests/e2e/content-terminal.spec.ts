import { expect, test, type Page } from './support/test.ts';

const start = new Date('2025-06-07T10:00:00Z');
/**
 * Where the installed clock is paused, before the page loads (so no timer fires on the way). Not
 * `start` itself: the clock runs from `install` on, and on a busy machine it has passed `start`
 * by the time `pauseAt` comes ("Cannot fast-forward to the past").
 */
const paused = new Date(start.getTime() + 60_000);

test('the terminal waits 600 ms once on screen, then types the session', async ({ page }) => {
  // A paused fake clock: only runFor() lets page timers fire, so the delay is measured exactly.
  await page.clock.install({ time: start });
  await page.clock.pauseAt(paused);
  await page.goto('/');
  const terminal = page.getByTestId('terminal-demo');
  const screen = page.getByTestId('terminal-screen');
  await expect(terminal).toHaveAttribute('data-phase', 'waiting');

  await page.clock.runFor(550);
  await expect(terminal).toHaveAttribute('data-phase', 'waiting');
  // Waiting shows the first step finished, nothing of the second.
  await expect(screen).toContainText('Stack acme created');
  await expect(screen).not.toContainText('env:create');

  await page.clock.runFor(100);
  await expect(terminal).toHaveAttribute('data-phase', 'running');
  await page.clock.runFor(3_000);
  await expect(screen).toContainText('orgsmith env:create');
  await expect(screen).not.toContainText('flow:merge');

  // Pausing stops the typing; resuming continues where it stopped.
  await page.getByRole('button', { name: 'Pause the terminal demo' }).click();
  await expect(terminal).toHaveAttribute('data-phase', 'paused');
  const pausedText = await screen.textContent();
  await page.clock.runFor(5_000);
  await expect(screen).toHaveText(pausedText ?? '');
  await page.getByRole('button', { name: 'Resume the terminal demo' }).click();
  await page.clock.runFor(40_000);
  await expect(terminal).toHaveAttribute('data-phase', 'done');
  await expect(screen).toContainText('Merge flow complete');
  await expect(page.getByRole('button', { name: 'Replay the terminal demo' })).toBeVisible();
});

test('the server-rendered terminal shows a finished first frame, not an empty box', async ({
  request,
  page,
}) => {
  const html = await (await request.get('/')).text();
  const screenHtml =
    /data-testid="terminal-screen"[^>]*>(.*?)<\/div><div class="visually-hidden"/s.exec(html)?.[1];
  expect(screenHtml).toContain('orgsmith stack:create --name acme');
  expect(screenHtml).toContain('Stack acme created with environment prod');
  expect(screenHtml).not.toContain('env:create');

  // Before any script runs, the first frame is painted.
  await page.route(/\.js$/, (route) => route.abort());
  await page.goto('/');
  const screen = page.getByTestId('terminal-screen');
  await expect(screen).toContainText('orgsmith stack:create --name acme');
  await expect(screen).toContainText('Stack acme created with environment prod');
});

/** Records each phase change with the page's own clock, so a slow test runner cannot skew it. */
async function recordPhases(page: Page) {
  await page.addInitScript(() => {
    const phases: { phase: string; at: number }[] = [];
    Object.assign(window, { terminalPhases: phases });
    new MutationObserver(() => {
      const phase = document
        .querySelector('[data-testid="terminal-demo"]')
        ?.getAttribute('data-phase');
      if (phase && phases.at(-1)?.phase !== phase) phases.push({ phase, at: performance.now() });
    }).observe(document, { subtree: true, childList: true, attributes: true });
  });
}

function recordedPhases(page: Page) {
  return page.evaluate(() =>
    'terminalPhases' in window ? (window.terminalPhases as { phase: string; at: number }[]) : [],
  );
}

test('the terminal starts on its own in real time, 600 ms after it is shown', async ({ page }) => {
  await recordPhases(page);
  await page.goto('/');
  const terminal = page.getByTestId('terminal-demo');
  await expect(terminal).toHaveAttribute('data-phase', /running|done/, { timeout: 10_000 });
  await expect(page.getByTestId('terminal-screen')).toContainText('orgsmith', { timeout: 5_000 });
  const phases = await recordedPhases(page);
  const waiting = phases.find((entry) => entry.phase === 'waiting');
  const running = phases.find((entry) => entry.phase === 'running');
  expect(phases.map((entry) => entry.phase).slice(0, 3)).toEqual(['idle', 'waiting', 'running']);
  expect((running?.at ?? 0) - (waiting?.at ?? 0)).toBeGreaterThanOrEqual(590);
});

test('reduced motion shows the final state at once', async ({ page }) => {
  await recordPhases(page);
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await page.goto('/');
  const terminal = page.getByTestId('terminal-demo');
  // "At once": straight from the server's first frame to the final state once hydrated, never
  // waiting or typing — judged by the phases the page went through, not by how fast a loaded
  // machine hydrates.
  await expect(terminal).toHaveAttribute('data-phase', 'done', { timeout: 10_000 });
  await expect(page.getByTestId('terminal-screen')).toContainText('Merge flow complete');
  expect((await recordedPhases(page)).map((entry) => entry.phase)).toEqual(['idle', 'done']);
});

test('the terminal pauses off screen and does not start before it is seen', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 500 });
  await page.clock.install({ time: start });
  await page.clock.pauseAt(paused);
  await page.goto('/');
  const terminal = page.getByTestId('terminal-demo');
  await page.evaluate(() => window.scrollTo(0, 0));
  await expect(terminal).toHaveAttribute('data-phase', 'idle');
  await page.clock.runFor(2_000);
  await expect(terminal).toHaveAttribute('data-phase', 'idle');
  await terminal.scrollIntoViewIfNeeded();
  await expect(terminal).toHaveAttribute('data-phase', 'waiting');
  await page.clock.runFor(700);
  await expect(terminal).toHaveAttribute('data-phase', 'running');
  await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
  // The terminal learns it left the screen from an intersection observer, which reports on the
  // browser's next real frame (not on the paused clock), and React applies that in tasks of its
  // own: wait for an observer of the test's to report the same, then for a few tasks, before the
  // screen is read — else the demo could still type on the clock's next run.
  await page.evaluate(
    () =>
      new Promise<void>((resolve) => {
        const element = document.querySelector('[data-testid="terminal-demo"]');
        if (!element) throw new Error('no terminal');
        const observer = new IntersectionObserver((entries) => {
          if (entries.some((entry) => !entry.isIntersecting)) {
            observer.disconnect();
            resolve();
          }
        });
        observer.observe(element);
      }),
  );
  await page.evaluate(async () => {
    for (let task = 0; task < 10; task += 1) {
      await new Promise<void>((resolve) => {
        const channel = new MessageChannel();
        channel.port1.onmessage = () => resolve();
        channel.port2.postMessage(null);
      });
    }
  });
  await page.clock.runFor(200);
  const text = await page.getByTestId('terminal-screen').textContent();
  await page.clock.runFor(3_000);
  expect(await page.getByTestId('terminal-screen').textContent()).toBe(text);
});

test('the terminal has a text alternative and reserves its space (no layout shift)', async ({
  page,
}) => {
  await page.goto('/');
  const screen = page.getByTestId('terminal-screen');
  await expect(screen).toHaveAttribute('aria-hidden', 'true');
  const transcript = page.getByTestId('terminal-transcript');
  await expect(transcript).toContainText('orgsmith flow:out --environment uat --checkOnly');
  await expect(transcript).toContainText('orgsmith flow:merge --from uat --into prod');
  const before = await screen.boundingBox();
  await expect(page.getByTestId('terminal-demo')).toHaveAttribute('data-phase', 'running', {
    timeout: 5_000,
  });
  await page.waitForTimeout(3_000);
  const after = await screen.boundingBox();
  expect(after?.height).toBe(before?.height);
  const shift = await page.evaluate(
    () =>
      new Promise<number>((resolve) => {
        let total = 0;
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries()) {
            total += (entry as PerformanceEntry & { value: number }).value;
          }
        }).observe({ type: 'layout-shift', buffered: true });
        setTimeout(() => resolve(total), 500);
      }),
  );
  expect(shift).toBe(0);
});
