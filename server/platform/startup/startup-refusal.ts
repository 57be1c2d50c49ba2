import path from 'node:path';

/**
 * A setting the server will not start with: `message` is one line that names the variable at
 * fault and says what to do (decision 217). Thrown anywhere on the start-up path; `main.ts` and
 * `dev.ts` print it alone on stderr and exit 1.
 */
export class StartupRefusal extends Error {
  override name = 'StartupRefusal';
  /** The variable at fault, e.g. `DATA_DIR`. */
  readonly variable: string;
  constructor(variable: string, message: string, options?: ErrorOptions) {
    super(oneLine(message), options);
    this.variable = variable;
  }
}

/** Line breaks and runs of spaces become one space, so a refusal is always a single line. */
export function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** A string property of an error (`code`, `path`, `syscall` of a file-system error). */
function field(error: unknown, name: string): string | undefined {
  const value = typeof error === 'object' && error !== null ? Reflect.get(error, name) : undefined;
  return typeof value === 'string' ? value : undefined;
}

/** What a file-system error code means to an operator. */
const FILE_PROBLEMS: Record<string, string> = {
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EROFS: 'read-only file system',
  ENOTDIR: 'a part of the path is not a directory',
  ENOENT: 'no such file or directory',
  ENOSPC: 'no space left on the device',
  EDQUOT: 'disk quota exceeded',
};

/**
 * A file-system error met while opening `DATA_DIR` (a folder of another user, one this user may
 * not write, a read-only disk) as a refusal naming DATA_DIR; anything else unchanged.
 */
export function dataDirRefusal(error: unknown, dataDir: string): unknown {
  const problem = FILE_PROBLEMS[field(error, 'code') ?? ''];
  if (!problem || error instanceof StartupRefusal) return error;
  const dir = path.resolve(dataDir);
  const what = [field(error, 'syscall'), field(error, 'path') ?? dir].filter(Boolean).join(' ');
  const user = process.getuid?.();
  return new StartupRefusal(
    'DATA_DIR',
    `DATA_DIR ${dir} cannot be used (${what}: ${problem}): give the directory to this server's` +
      ` user${user === undefined ? '' : ` (uid ${user})`} or set DATA_DIR to a directory it may write.`,
    { cause: error },
  );
}

/** Why a listener could not bind, as a refusal naming its port variable (and HOST when set). */
export function listenRefusal(
  error: unknown,
  variable: 'PORT' | 'METRICS_PORT' | 'CONSOLE_PORT',
  port: number | undefined,
  host: string | undefined,
): StartupRefusal {
  const hostVariable = { PORT: 'HOST', METRICS_PORT: 'METRICS_HOST', CONSOLE_PORT: 'CONSOLE_HOST' }[
    variable
  ];
  const where = `${variable}=${port ?? ''}${host === undefined ? '' : ` on ${hostVariable}=${host}`}`;
  const reasons: Record<string, string> = {
    EADDRINUSE: 'the port is in use by another process: stop it or choose another port',
    EACCES: 'this user may not listen on that port: choose one above 1023',
    EADDRNOTAVAIL: `${hostVariable} is not an address of this machine`,
  };
  const reason =
    reasons[field(error, 'code') ?? ''] ?? (error instanceof Error ? error.message : String(error));
  return new StartupRefusal(variable, `Cannot listen on ${where}: ${reason}`, { cause: error });
}

/**
 * The one line printed for an error that stopped the start: a refusal's own message; anything
 * else its message prefixed with what failed, and its stack only when `verbose`
 * (LOG_LEVEL=debug or trace) so an unexpected failure can still be traced.
 */
export function refusalLines(error: unknown, verbose = false): string[] {
  if (error instanceof StartupRefusal) return [error.message];
  const message = error instanceof Error ? error.message : String(error);
  const line = `Cannot start: ${oneLine(message)}`;
  return verbose && error instanceof Error && error.stack ? [line, error.stack] : [line];
}

/** Prints why the start was refused, alone on stderr, and ends the process with exit code 1. */
export function refuseStart(error: unknown, verbose = false): never {
  process.stderr.write(`${refusalLines(error, verbose).join('\n')}\n`);
  process.exit(1);
}
