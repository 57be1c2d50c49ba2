import { userInfo } from 'node:os';
import { actingAs, isActor, type Actor } from '../platform/audit/audit-context.ts';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { openDatabase, type DatabaseHandle } from '../platform/db/client.ts';
import { parseEnv, type Env } from '../env.ts';
import {
  AdminError,
  EXIT_FAILURE,
  EXIT_OK,
  EXIT_USAGE,
  type AdminCommand,
  type AdminContext,
  type AdminFiles,
  type AdminIo,
} from '../platform/commands/command.ts';
import { localFiles } from '../platform/commands/local-files.ts';
import { terminalSafeIo } from '../platform/commands/terminal-text.ts';
import { loadAdminCommands } from '../domains.ts';
import { assertEmbeddedDatabaseFree } from './embedded-database-guard.ts';
import { runInServer, serverRunsOn } from './run-in-server.ts';

export const ADMIN_INVOCATION = 'npm run admin --';

export interface RunAdminOptions {
  /** The environment to read (default: process.env). */
  environment?: Record<string, string | undefined>;
  /** The environment already read (the server's own, for a command run in it). */
  env?: Env;
  io?: AdminIo;
  /** The operator's files (default: this machine's, as this user). */
  files?: AdminFiles;
  /**
   * Run for the CLI in the server, through the admin socket (decision 189): only commands that
   * run there, never forwarded on.
   */
  inServer?: boolean;
  /** Told the name of the command found, before it runs. */
  onCommand?: (name: string) => void;
  /** Where relative paths are resolved (default: the directory npm was started in). */
  cwd?: string;
  /** Tests pass an already open database; the default opens it as the server does. */
  openDatabase?: (env: Env) => Promise<DatabaseHandle>;
  commands?: readonly AdminCommand<Env>[];
  now?: () => Date;
  /** Who runs it: the CLI's user, sent over the admin socket (default: this process's user). */
  user?: string;
}

/** `cli:<os user>`: the user who ran `npm run admin` (behind sudo, the one who called sudo). */
function cliActor(user: string | undefined): Actor {
  let name = user ?? process.env.SUDO_USER;
  if (!name) {
    try {
      name = userInfo().username;
    } catch {
      name = `uid-${process.getuid?.() ?? 'unknown'}`;
    }
  }
  const actor = `cli:${name.replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 64) || 'unknown'}`;
  return isActor(actor) ? actor : 'cli:unknown';
}

const consoleIo: AdminIo = {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
};

async function defaultOpenDatabase(env: Env): Promise<DatabaseHandle> {
  if (!env.DATABASE_URL) await assertEmbeddedDatabaseFree(env);
  return openDatabase({
    databaseUrl: env.DATABASE_URL,
    directUrl: env.DATABASE_DIRECT_URL,
    timeouts: env.databaseTimeouts,
    dataDir: env.DATA_DIR,
    poolMax: env.DATABASE_POOL_MAX,
  });
}

function pad(text: string, width: number): string {
  return text.padEnd(width, ' ');
}

function commandSynopsis(command: AdminCommand<Env>): string {
  const args = (command.arguments ?? []).map((arg) => ` <${arg.name}>`).join('');
  const options = Object.keys(command.options ?? {}).length > 0 ? ' [options]' : '';
  return `${command.name}${args}${options}`;
}

function overview(commands: readonly AdminCommand<Env>[], group?: string): string[] {
  const shown = group ? commands.filter((c) => c.name.split(' ')[0] === group) : commands;
  const width = Math.max(...shown.map((c) => commandSynopsis(c).length)) + 2;
  return [
    `Usage: ${ADMIN_INVOCATION} <command> [arguments] [options]`,
    '',
    'Operator commands for the Orgsmith account service. They read the same environment as the',
    'server (DATABASE_URL, DATA_DIR, DOWNLOAD_BASE_URL, ...) and open the same database.',
    '',
    group ? `Commands in "${group}":` : 'Commands:',
    ...shown.map((c) => `  ${pad(commandSynopsis(c), width)}${c.summary}`),
    '',
    `Run \`${ADMIN_INVOCATION} <command> --help\` for the details of one command.`,
    'Exit codes: 0 success, 1 failure, 2 wrong usage.',
  ];
}

function commandHelp(command: AdminCommand<Env>): string[] {
  const lines = [`Usage: ${ADMIN_INVOCATION} ${commandSynopsis(command)}`, '', command.summary];
  if (command.details) lines.push('', command.details);
  const args = command.arguments ?? [];
  const options = Object.entries(command.options ?? {});
  const labels = [
    ...args.map((arg) => `<${arg.name}>`),
    ...options.map(([name, option]) => `--${name}${option.type === 'string' ? ' <value>' : ''}`),
    '--help',
  ];
  const width = Math.max(...labels.map((label) => label.length)) + 2;
  if (args.length > 0) {
    lines.push('', 'Arguments:');
    for (const arg of args) lines.push(`  ${pad(`<${arg.name}>`, width)}${arg.description}`);
  }
  lines.push('', 'Options:');
  for (const [name, option] of options) {
    const label = `--${name}${option.type === 'string' ? ' <value>' : ''}`;
    lines.push(`  ${pad(label, width)}${option.description}`);
  }
  lines.push(`  ${pad('--help', width)}Show this help`);
  return lines;
}

/** Finds the command whose name is the longest prefix of the words given. */
function matchCommand(
  commands: readonly AdminCommand<Env>[],
  words: string[],
): { command: AdminCommand<Env>; rest: string[] } | undefined {
  let best: { command: AdminCommand<Env>; rest: string[] } | undefined;
  for (const command of commands) {
    const parts = command.name.split(' ');
    const matches = parts.every((part, index) => words[index] === part);
    if (matches && (!best || parts.length > best.command.name.split(' ').length)) {
      best = { command, rest: words.slice(parts.length) };
    }
  }
  return best;
}

/**
 * The operator command line: finds the command, checks its arguments, reads the environment,
 * opens the database on demand and always closes it. Returns the process exit code.
 */
export async function runAdmin(argv: string[], options: RunAdminOptions = {}): Promise<number> {
  // The one output layer (decision 208): the command's lines, relayed ones included, reach the
  // terminal with their control and format characters made visible.
  const io = terminalSafeIo(options.io ?? consoleIo);
  const commands = options.commands ?? (await loadAdminCommands());
  const wantsHelp = argv.includes('--help') || argv.includes('-h');
  const words = argv.filter((arg) => arg !== '--help' && arg !== '-h');
  const firstWord = words[0];

  if (firstWord === undefined || firstWord.startsWith('-')) {
    for (const line of overview(commands)) (wantsHelp ? io.out : io.err)(line);
    return wantsHelp ? EXIT_OK : EXIT_USAGE;
  }
  const match = matchCommand(commands, words);
  if (!match) {
    const groupCommands = commands.filter((c) => c.name.split(' ')[0] === firstWord);
    if (groupCommands.length > 0) {
      // `releases` alone or `releases --help`: the commands of that group.
      const unknown = words[1];
      if (unknown !== undefined && !wantsHelp) io.err(`Unknown command "${firstWord} ${unknown}".`);
      for (const line of overview(commands, firstWord)) (wantsHelp ? io.out : io.err)(line);
      return wantsHelp && unknown === undefined ? EXIT_OK : EXIT_USAGE;
    }
    io.err(`Unknown command "${firstWord}". Run \`${ADMIN_INVOCATION} --help\` for the list.`);
    return EXIT_USAGE;
  }
  const { command } = match;
  if (wantsHelp) {
    for (const line of commandHelp(command)) io.out(line);
    return EXIT_OK;
  }

  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({
      args: match.rest,
      options: Object.fromEntries(
        Object.entries(command.options ?? {}).map(([name, option]) => [
          name,
          option.short ? { type: option.type, short: option.short } : { type: option.type },
        ]),
      ),
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    io.err(`${error instanceof Error ? error.message : String(error)}`);
    io.err(`Usage: ${ADMIN_INVOCATION} ${commandSynopsis(command)}`);
    return EXIT_USAGE;
  }
  const expected = command.arguments ?? [];
  if (parsed.positionals.length !== expected.length) {
    const problem =
      parsed.positionals.length < expected.length
        ? `Missing <${expected[parsed.positionals.length]?.name ?? 'argument'}>.`
        : `Unexpected argument "${parsed.positionals[expected.length] ?? ''}".`;
    io.err(problem);
    io.err(`Usage: ${ADMIN_INVOCATION} ${commandSynopsis(command)}`);
    return EXIT_USAGE;
  }

  let env: Env;
  try {
    env = options.env ?? parseEnv(options.environment ?? process.env, 'admin');
  } catch (error) {
    io.err(error instanceof Error ? error.message : String(error));
    return EXIT_FAILURE;
  }

  const cwd = options.cwd ?? process.env.INIT_CWD ?? process.cwd();
  options.onCommand?.(command.name);
  const whileServing = command.whileServing ?? 'in-server';
  if (options.inServer && whileServing !== 'in-server') {
    io.err(`"${command.name}" does not run through the admin socket.`);
    return EXIT_USAGE;
  }
  // The embedded database opens in one process only: while a server has it, the command runs
  // there (decision 189).
  if (!options.inServer && !options.openDatabase && !env.DATABASE_URL && whileServing !== 'here') {
    const dataDir = path.resolve(env.DATA_DIR);
    try {
      if (whileServing === 'stop-first') {
        if (await serverRunsOn(dataDir)) {
          io.err(
            [
              `${command.name} needs the service stopped: a server is running on the embedded database in ${dataDir}.`,
              `Stop that server, run \`${ADMIN_INVOCATION} ${command.name}\` again, then start the server.`,
            ].join('\n'),
          );
          return EXIT_FAILURE;
        }
      } else {
        const code = await runInServer({ dataDir, argv, cwd, io, files: options.files });
        if (code !== undefined) return code;
      }
    } catch (error) {
      io.err(error instanceof Error ? error.message : String(error));
      return EXIT_FAILURE;
    }
  }

  const open = options.openDatabase ?? defaultOpenDatabase;
  let handle: DatabaseHandle | undefined;
  const context: AdminContext<Env> = {
    env,
    io,
    async database() {
      handle ??= await open(env);
      return handle.db;
    },
    resolvePath: (file) => path.resolve(cwd, file),
    files: options.files ?? localFiles,
    // As the server resolves it (against its working directory), so both find the same socket.
    embeddedDataDir:
      env.DATABASE_URL || options.openDatabase || options.inServer
        ? undefined
        : path.resolve(env.DATA_DIR),
    now: options.now ?? (() => new Date()),
  };
  const values: Record<string, string | boolean | undefined> = {};
  for (const [name, value] of Object.entries(parsed.values)) {
    if (typeof value === 'string' || typeof value === 'boolean') values[name] = value;
  }
  try {
    // Every change the command makes is audited as the operator's (decision 224).
    // A command's `--reason` is the reason of every change it makes.
    const actor = cliActor(options.user);
    const reason = typeof values.reason === 'string' ? values.reason.trim().slice(0, 500) : '';
    return await actingAs({ actor, ...(reason ? { reason } : {}) }, () =>
      command.run(context, { args: parsed.positionals, options: values }),
    );
  } catch (error) {
    if (error instanceof AdminError) {
      io.err(error.message);
      return error.exitCode;
    }
    io.err(`Error: ${error instanceof Error ? error.message : String(error)}`);
    return EXIT_FAILURE;
  } finally {
    await handle?.close();
  }
}
