/**
 * Vitest options of the suites whose files share one module graph per worker (unit and API,
 * security; decision 200): the app is imported once per worker, not once per file. Stubs made
 * with `vi.stubGlobal`/`vi.stubEnv` are undone before every test and, by the setup file, at the
 * end of every file, which also fails a file that leaves a browser global behind.
 */
export const sharedModuleGraph = {
  isolate: false,
  unstubGlobals: true,
  unstubEnvs: true,
  setupFiles: ['tests/support/vitest-setup.ts'],
};
