import { runAdmin } from './run-admin.ts';

/** `npm run admin -- <command>`: see run-admin.ts and `npm run admin -- --help`. */
process.exitCode = await runAdmin(process.argv.slice(2));
