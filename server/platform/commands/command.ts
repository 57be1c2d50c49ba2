import type { Database } from '../db/database.ts';

/** Where a command writes: the terminal in production, buffers in tests. */
export interface AdminIo {
  out(line: string): void;
  err(line: string): void;
}

/** What reading a file the operator named gave: its bytes, or why not. */
export type FileReading =
  | { ok: true; bytes: Buffer }
  | { ok: false; reason: 'not-a-file' }
  | { ok: false; reason: 'too-large'; size: number }
  | { ok: false; reason: 'unreadable'; message: string };

/**
 * The operator's files. Commands read and write them only through here: run in the server (the
 * admin socket, decision 189), the bytes travel over the socket and the admin CLI reads and writes
 * them as the operator's user, in the operator's directory.
 */
export interface AdminFiles {
  /** Reads `file` whole unless it is larger than `maxBytes`. */
  read(file: string, maxBytes: number): Promise<FileReading>;
  /** Writes `bytes` to `file` atomically, readable by the operator only (0600); throws on failure. */
  write(file: string, bytes: Uint8Array): Promise<void>;
}

/**
 * The settings every command may read. A domain's commands declare the settings they read on top
 * (`AdminCommand<ReleaseCommandSettings>`); the admin CLI passes the whole environment, and its
 * command list's type checks that the environment has what each command reads.
 */
export interface CommandSettings {
  SECRET_KEY?: string;
}

export interface AdminContext<
  TSettings extends CommandSettings = CommandSettings,
  TPorts = unknown,
> {
  env: TSettings;
  io: AdminIo;
  /** Opens the database as the server does (migrations applied) on first call; closed after the command. */
  database(): Promise<Database>;
  /**
   * The service's ports, the very ones its routes get (decision 232): run in the server (the admin
   * socket), the running server's own; from the CLI, assembled once on `database()`'s database by
   * the one assembly the server uses (`assembleDeps`). A command passes them to its domain's query
   * and command functions and prints what they return.
   */
  ports(): Promise<TPorts>;
  /** Resolves a path the operator typed against the directory they ran the command in. */
  resolvePath(path: string): string;
  /** The operator's files, at paths from `resolvePath`. */
  files: AdminFiles;
  /**
   * The embedded database's data directory, where a running server may be asked for what only
   * it can do (its admin socket, decisions 130 and 189); undefined on PostgreSQL, when the command
   * was given its database or runs in the server.
   */
  embeddedDataDir: string | undefined;
  now(): Date;
}

export interface AdminOption {
  type: 'boolean' | 'string';
  description: string;
  short?: string;
}

export interface AdminArgument {
  name: string;
  description: string;
}

export interface AdminInput {
  /** Positional arguments, in the order of `arguments`. */
  args: string[];
  options: Record<string, string | boolean | undefined>;
}

/**
 * One operator command, e.g. `releases publish <manifest.json>`. Add a command by exporting one
 * from your domain folder and loading it in the `adminCommands` of the domain's manifest
 * (`defineDomain`, decision 169). A command is a printer (decision 232): it parses its arguments,
 * calls its domain's query or command function with `context.ports()` and prints the data it
 * returns; the query, the rules and the dependencies live in the domain, where the console's
 * endpoints call the same functions.
 */
export interface AdminCommand<
  TSettings extends CommandSettings = CommandSettings,
  TPorts = unknown,
> {
  /** Space-separated words that select it: `releases publish`. The first word is its group. */
  name: string;
  summary: string;
  /** Longer help shown by `<command> --help`. */
  details?: string;
  arguments?: readonly AdminArgument[];
  options?: Readonly<Record<string, AdminOption>>;
  /**
   * Where it runs while a server has the embedded database open (decision 189): in that server,
   * through its admin socket (the default); here, because it asks the server itself (`backup`);
   * or nowhere, because it needs the service stopped (`restore`), which it says.
   */
  whileServing?: 'in-server' | 'here' | 'stop-first';
  /** Returns the exit code (0 = success); throw AdminError for a failure with a clear message. */
  run: (context: AdminContext<TSettings, TPorts>, input: AdminInput) => Promise<number>;
}

/** A failure the operator can act on: printed as is, exit code 1 (2 for usage mistakes). */
export class AdminError extends Error {
  readonly exitCode: number;
  constructor(message: string, exitCode = 1) {
    super(message);
    this.name = 'AdminError';
    this.exitCode = exitCode;
  }
}

export const EXIT_OK = 0;
export const EXIT_FAILURE = 1;
export const EXIT_USAGE = 2;
