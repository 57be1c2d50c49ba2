/**
 * How every production start runs the server (`npm run serve`, the image's CMD, the benches and
 * real-process tests); `node-flags.test.ts` keeps package.json and the Dockerfile in step.
 */

/** The bundle `npm run build` writes (scripts/build-server.ts, decision 147). */
export const SERVER_ENTRY = 'build/service/main.js';

/**
 * The admin command line of the same bundle (`server/admin/cli.ts` built, decision 202): the
 * commands of `npm run admin`, which runs the sources, started without stripping them. It reads
 * NODE_ENV as the sources do.
 */
export const ADMIN_ENTRY = 'build/service/admin.js';

/**
 * Environment of the server process. glibc gives every thread that allocates (libuv's pool
 * compressing pages, V8's workers) an arena of its own, up to eight per core, and hands little of
 * it back: two arenas cost no measurable speed and 15–25 MB less RSS (decision 147). Read by glibc
 * at process start, so it cannot come from `.env` or the code.
 */
export const SERVER_ENVIRONMENT = { MALLOC_ARENA_MAX: '2' } as const;

/**
 * The flags every production start passes to node (`npm run serve`, the image's CMD, the benches
 * and real-process tests); `node-flags.test.ts` keeps package.json and the Dockerfile in step.
 * - `--max-semi-space-size=8`: V8 sizes its young generation by the machine's memory, up to two
 *   64 MiB semi-spaces that stay resident; 8 MiB each keeps a scavenge short and cheap.
 * - `--liftoff-only`: the embedded database's WebAssembly stays on V8's baseline compiler; the
 *   optimising tier held about 60 MB more for no measurable query speed (decision 135).
 * - `--optimize-for-size`: V8 grows the old generation less eagerly and collects sooner; the heap
 *   after every page was served once went from 110–156 MB to 45–48 MB (decision 135).
 */
export const SERVER_NODE_FLAGS = [
  '--max-semi-space-size=8',
  '--liftoff-only',
  '--optimize-for-size',
] as const;
