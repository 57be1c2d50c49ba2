import { afterAll, expect, vi } from 'vitest';

/**
 * Runs around every file of the unit and security suites, which share one module graph and one
 * global object per worker (`isolate: false`, decision 200). Vitest's `unstubGlobals` undoes stubs
 * only *before* the next test, so a file's last stub would reach the next file's `beforeAll`: a
 * `window` stubbed by the analytics test made PGlite, started in the next file, think it was in a
 * browser. Each file therefore ends with its stubs undone, and fails itself if it left a browser
 * global behind some other way.
 */
afterAll(() => {
  vi.unstubAllGlobals();
  vi.unstubAllEnvs();
  expect(
    ['window', 'document', 'location'].filter((name) => name in globalThis),
    'browser globals left behind by this file',
  ).toEqual([]);
});
