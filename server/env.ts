import { readInvoiceApprovalAbove } from './billing/invoices/invoice-approval.ts';
import { isIP } from 'node:net';
import path from 'node:path';
import { z } from 'zod';
import { siteConfig } from '../shared/site-config.ts';
import {
  DEFAULT_BACKUP_EVERY_MS,
  DEFAULT_BACKUP_KEEP,
  parseBackupInterval,
} from './backup/backup-interval.ts';
import { DEFAULT_DATABASE_TIMEOUTS } from './platform/db/connection-settings.ts';
import { isEd25519PrivateKeyPem } from './platform/crypto/signing-keys.ts';
import { parseSecurityTxtExpires } from './features/security-contact/security-txt.ts';
import {
  DEFAULT_METRICS_HOST,
  METRICS_TOKEN_PATTERN,
  metricsSettingProblems,
} from './metrics/metrics-access.ts';
import {
  isReleaseSigningKeyPem,
  isSameSigningKey,
} from './licensing/releases/release-signing-key.ts';
import {
  choosePaymentProvider,
  isLoopbackOrigin,
  webhookSecretMissing,
} from './billing/payments/choose-payment-provider.ts';
import {
  describeNearMisses,
  findNearMisses,
  type NearMiss,
} from './platform/startup/near-miss-variables.ts';
import { StartupRefusal } from './platform/startup/startup-refusal.ts';
import { DEFAULT_VIES_URL } from './billing/vat/vies-client.ts';
import {
  bankAccountVariable,
  isExampleIban,
  readBankAccountSetting,
  type BankAccounts,
} from './billing/bank-accounts.ts';
import { currencies } from '../shared/pricing/index.ts';
import { DEFAULT_TRUST_PROXY, parseTrustProxy } from './platform/http/trusted-proxies.ts';
import {
  DEFAULT_HEADERS_TIMEOUT_MS,
  DEFAULT_MAX_CONNECTIONS,
  DEFAULT_REQUEST_TIMEOUT_MS,
} from './platform/http/connection-limits.ts';

/** An http:// or https:// URL with a host: `localhost:3000` (no scheme) is refused, not guessed. */
const httpUrl = z.string().refine((value) => {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}, 'must be an http:// or https:// URL, e.g. https://orgsmith.example or http://localhost:3000');
const optionalUrl = httpUrl.optional();

/** A whole number within bounds, with one message that says which. */
function wholeNumber(min: number, max?: number) {
  const error = `must be a whole number ${max === undefined ? `of at least ${min}` : `from ${min} to ${max}`}`;
  const number = z.coerce.number({ error }).int({ error }).min(min, { error });
  return max === undefined ? number : number.max(max, { error });
}

/**
 * `./var` in the project folder (beside `build/` and `server/`), whatever the working directory:
 * the bundle rewrites `import.meta.dirname` to this source's folder (scripts/build-server.ts).
 */
export const DEFAULT_DATA_DIR = path.resolve(import.meta.dirname, '..', 'var');

/** Where e-mails go: an SMTP server, or `.eml` files under `$DATA_DIR/mail` (decision 217). */
export type MailTransportName = 'smtp' | 'file';

const envShape = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('production'),
  PORT: wholeNumber(1, 65535).default(3000),
  /**
   * The address the server listens on (e.g. 0.0.0.0 in the container image); unset = loopback
   * only while payments are test payments for want of keys, else every interface (decision 156).
   */
  HOST: z
    .string()
    .refine(
      (host) => host === 'localhost' || isIP(host) !== 0,
      'must be an IP address (e.g. 0.0.0.0, ::, 127.0.0.1) or localhost',
    )
    .optional(),
  PUBLIC_BASE_URL: optionalUrl,
  /** Seconds a client has to send a request's headers before it is answered 408 and cut off. */
  HTTP_HEADERS_TIMEOUT_SECONDS: wholeNumber(1, 300).default(DEFAULT_HEADERS_TIMEOUT_MS / 1000),
  /** Seconds a client has to send a whole request, body included (no route streams a body). */
  HTTP_REQUEST_TIMEOUT_SECONDS: wholeNumber(1, 3600).default(DEFAULT_REQUEST_TIMEOUT_MS / 1000),
  /** Open connections per listening address; more are closed as they arrive. */
  HTTP_MAX_CONNECTIONS: wholeNumber(1, 1_000_000).default(DEFAULT_MAX_CONNECTIONS),
  DATA_DIR: z.string().min(1).default(DEFAULT_DATA_DIR),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL')
    .optional(),
  /**
   * PostgreSQL itself for what needs a session: LISTEN and migrations (decision 237). Default
   * DATABASE_URL; set it when DATABASE_URL goes through PgBouncer in transaction mode.
   */
  DATABASE_DIRECT_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL')
    .optional(),
  /** PostgreSQL connections per instance (plus one for LISTEN); size max_connections for all instances. */
  DATABASE_POOL_MAX: wholeNumber(1, 1000).default(10),
  /** Milliseconds a statement may run before PostgreSQL cancels it; 0 = no limit. */
  DATABASE_STATEMENT_TIMEOUT_MS: wholeNumber(0, 86_400_000).default(
    DEFAULT_DATABASE_TIMEOUTS.statementTimeoutMs,
  ),
  /** Milliseconds a transaction may sit idle before PostgreSQL ends its connection; 0 = no limit. */
  DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS: wholeNumber(0, 86_400_000).default(
    DEFAULT_DATABASE_TIMEOUTS.idleInTransactionTimeoutMs,
  ),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL')
    .optional(),
  /** `smtp` = send through SMTP_URL; `file` = `.eml` files in `$DATA_DIR/mail` on purpose (decision 217). */
  MAIL_TRANSPORT: z.enum(['smtp', 'file'], { error: 'must be smtp or file' }).optional(),
  MAIL_FROM: z.string().min(3).default(siteConfig.mailFrom),
  SUPPORT_EMAIL: z.email().default(siteConfig.supportEmail),
  STRIPE_SECRET_KEY: z.string().startsWith('sk_').optional(),
  STRIPE_WEBHOOK_SECRET: z.string().startsWith('whsec_').optional(),
  STRIPE_API_BASE_URL: optionalUrl,
  /** `local` = the built-in TEST-MODE provider on purpose; unset = Stripe when keyed (decision 126). */
  PAYMENT_PROVIDER: z.enum(['stripe', 'local']).optional(),
  /** VIES's REST API, which confirms EU VAT IDs before a reverse charge (decision 210). */
  VIES_URL: httpUrl.default(DEFAULT_VIES_URL),
  /** The ECB's reference rates file, fetched hourly when set (decision 221). */
  ECB_RATES_URL: optionalUrl,
  /** The seller's account per invoice currency, "holder; IBAN; BIC; bank" or none (decision 218). */
  BANK_ACCOUNT_EUR: z.string().optional(),
  BANK_ACCOUNT_USD: z.string().optional(),
  /** Net per invoice order above which it waits for finance (decision 230): 5000, or EUR:5000,USD:6000. */
  INVOICE_APPROVAL_ABOVE: z.string().optional(),
  /** `review` (default): a company's first invoice order waits for finance; `trust`: it does not. */
  INVOICE_APPROVAL_FIRST_ORDER: z.enum(['review', 'trust']).default('review'),
  LICENSE_SIGNING_KEY: z
    .string()
    .refine(isEd25519PrivateKeyPem, 'must be an Ed25519 private key in PEM (PKCS#8)')
    .optional(),
  /** Ed25519 key for releases' SHA256SUMS; never the licence-signing key (decision 140). */
  RELEASE_SIGNING_KEY: z
    .string()
    .refine(isReleaseSigningKeyPem, 'must be an Ed25519 private key in PEM (PKCS#8)')
    .optional(),
  ACCOUNT_API_URL: optionalUrl,
  DOWNLOAD_BASE_URL: httpUrl.default(siteConfig.defaultDownloadBaseUrl),
  GA_MEASUREMENT_ID: z
    .string()
    .regex(/^G-[A-Z0-9]+$/, 'must look like G-XXXXXXX')
    .optional(),
  /** Proxies whose X-Forwarded-For is believed: `loopback`, `private`, `linklocal`, addresses, CIDRs or `none`. */
  TRUST_PROXY: z
    .string()
    .default(DEFAULT_TRUST_PROXY)
    .transform((value, ctx) => {
      try {
        return parseTrustProxy(value);
      } catch (error) {
        ctx.addIssue({
          code: 'custom',
          message: error instanceof Error ? error.message : 'invalid',
        });
        return z.NEVER;
      }
    }),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  SECRET_KEY: z.string().min(32).optional(),
  /** Licence validations per minute per key or token (4× per client address); 0 = no limit. */
  LICENSE_VALIDATION_RATE_LIMIT: wholeNumber(0).default(600),
  /** Seconds a validation may reuse a licence it read (changes show within this); 0 = never. */
  LICENSE_VALIDATION_CACHE_SECONDS: wholeNumber(0, 300).default(5),
  /** Bearer token that opens `GET /metrics` on the public port (decision 131); unset = closed. */
  METRICS_TOKEN: z
    .string()
    .regex(
      METRICS_TOKEN_PATTERN,
      'must be 32 to 512 characters of A-Z a-z 0-9 - . _ ~ + / = (e.g. `openssl rand -hex 32`)',
    )
    .optional(),
  /** A listener of its own that serves only `/metrics`; unset = none. */
  METRICS_PORT: wholeNumber(1, 65535).optional(),
  /** The address that listener binds (default 127.0.0.1). */
  METRICS_HOST: z
    .string()
    .refine((host) => isIP(host) !== 0, 'must be an IP address, e.g. 127.0.0.1, ::1 or 0.0.0.0')
    .optional(),
  /** The operator console's own listener (decision 226); it serves nothing else. */
  CONSOLE_PORT: wholeNumber(1, 65535).default(3001),
  /** The address that listener binds; unset = loopback only (127.0.0.1 and ::1). */
  CONSOLE_HOST: z
    .string()
    .refine(
      (host) => host === 'localhost' || isIP(host) !== 0,
      'must be an IP address (e.g. 0.0.0.0, ::, 127.0.0.1) or localhost',
    )
    .optional(),
  /** The console's origin as browsers reach it: its passkeys are bound to its host name. */
  CONSOLE_ORIGIN: optionalUrl,
  /** Scheduled backups go here (decision 130); unset = none. */
  BACKUP_DIR: z.string().min(1).optional(),
  /** How often: `30m`, `24h`, `7d` (default 24h with BACKUP_DIR). */
  BACKUP_EVERY: z
    .string()
    .optional()
    .transform((value, ctx) => {
      if (value === undefined) return undefined;
      const ms = parseBackupInterval(value);
      if (ms === undefined) {
        ctx.addIssue({
          code: 'custom',
          message:
            'must be a whole number and one unit: s, m, h or d (e.g. 30m, 24h, 7d), from 1s to 366d',
        });
        return z.NEVER;
      }
      return ms;
    }),
  /** How many scheduled backups to keep; older ones are deleted (default 7). */
  BACKUP_KEEP: wholeNumber(1, 10_000).optional(),
  /** security.txt's `Expires`, a fixed date (decision 160); checked at start. */
  SECURITY_TXT_EXPIRES: z
    .string()
    .default(siteConfig.securityTxtExpires)
    .transform((value, ctx) => {
      const date = parseSecurityTxtExpires(value);
      if (date === undefined) {
        ctx.addIssue({
          code: 'custom',
          message: 'must be a date like 2027-05-31 or 2027-05-31T00:00:00Z',
        });
        return z.NEVER;
      }
      return date;
    }),
});

/**
 * Every variable this service reads: the schema's, and those read before it or by the process
 * that starts it (`SERVER_ENVIRONMENT`, npm's `INIT_CWD`), so none of them is taken for a slip.
 */
export const KNOWN_VARIABLES: readonly string[] = [
  ...Object.keys(envShape.shape),
  'MALLOC_ARENA_MAX',
  'INIT_CWD',
];

/**
 * How e-mails leave (decision 217): through SMTP_URL, or as files when it is unset. Returns the
 * refusal as [variable, message] when MAIL_TRANSPORT contradicts SMTP_URL.
 */
function chooseMailTransport(env: {
  SMTP_URL?: string | undefined;
  MAIL_TRANSPORT?: MailTransportName | undefined;
}): { transport: MailTransportName; onPurpose: boolean } | { refused: [string, string] } {
  if (env.MAIL_TRANSPORT === 'smtp' && !env.SMTP_URL) {
    return {
      refused: [
        'SMTP_URL',
        'must be set with MAIL_TRANSPORT=smtp (e.g. smtp://user:pass@relay:587)',
      ],
    };
  }
  if (env.MAIL_TRANSPORT === 'file' && env.SMTP_URL) {
    return {
      refused: [
        'MAIL_TRANSPORT',
        'is file but SMTP_URL is set too: unset one of them (file writes e-mails to disk and sends none)',
      ],
    };
  }
  if (env.SMTP_URL) return { transport: 'smtp', onPurpose: env.MAIL_TRANSPORT === 'smtp' };
  return { transport: 'file', onPurpose: env.MAIL_TRANSPORT === 'file' };
}

/**
 * E-mails written to disk on a public origin without MAIL_TRANSPORT=file: a server refuses to
 * start so, and `/readyz` is never ready so (decision 217).
 */
export function mailSilentlyOnDisk(env: {
  mail: { transport: MailTransportName; onPurpose: boolean };
  PUBLIC_BASE_URL: string;
}): boolean {
  return (
    env.mail.transport === 'file' && !env.mail.onPurpose && !isLoopbackOrigin(env.PUBLIC_BASE_URL)
  );
}

const envSchema = envShape.transform((env, ctx) => {
  const publicBaseUrl = (env.PUBLIC_BASE_URL ?? `http://localhost:${env.PORT}`).replace(/\/$/, '');
  const mail = chooseMailTransport(env);
  const consoleOrigin = new URL(env.CONSOLE_ORIGIN ?? `http://localhost:${env.CONSOLE_PORT}`);
  // Passkeys are bound to the host name (the WebAuthn relying party): the origin has no path.
  if (consoleOrigin.pathname !== '/' || consoleOrigin.search || consoleOrigin.hash) {
    ctx.addIssue({
      code: 'custom',
      path: ['CONSOLE_ORIGIN'],
      message: 'must be an origin without a path, e.g. https://console.example.com',
    });
  }
  if (env.CONSOLE_PORT === env.PORT) {
    ctx.addIssue({
      code: 'custom',
      path: ['CONSOLE_PORT'],
      message: 'must differ from PORT: the console has a listener of its own',
    });
  }
  if ('refused' in mail) {
    const [variable, message] = mail.refused;
    ctx.addIssue({ code: 'custom', path: [variable], message });
  }
  const payments = choosePaymentProvider({ ...env, PUBLIC_BASE_URL: publicBaseUrl });
  if ('refused' in payments) {
    ctx.addIssue({ code: 'custom', path: [], message: payments.refused });
    return z.NEVER;
  }
  const metricsProblems = metricsSettingProblems(env);
  for (const [variable, message] of metricsProblems) {
    ctx.addIssue({ code: 'custom', path: [variable], message });
  }
  // Releases and licences are signed with keys of their own, so one can rotate without the other.
  if (
    env.RELEASE_SIGNING_KEY &&
    env.LICENSE_SIGNING_KEY &&
    isSameSigningKey(env.RELEASE_SIGNING_KEY, env.LICENSE_SIGNING_KEY)
  ) {
    ctx.addIssue({
      code: 'custom',
      path: ['RELEASE_SIGNING_KEY'],
      message: 'must be a key of its own, not the same key as LICENSE_SIGNING_KEY',
    });
  }
  // Node refuses a headers deadline later than the request's own.
  if (env.HTTP_HEADERS_TIMEOUT_SECONDS > env.HTTP_REQUEST_TIMEOUT_SECONDS) {
    ctx.addIssue({
      code: 'custom',
      path: ['HTTP_HEADERS_TIMEOUT_SECONDS'],
      message: 'must not be more than HTTP_REQUEST_TIMEOUT_SECONDS',
    });
  }
  // A direct URL alone would leave the pool on the embedded database and LISTEN elsewhere.
  if (env.DATABASE_DIRECT_URL !== undefined && env.DATABASE_URL === undefined) {
    ctx.addIssue({
      code: 'custom',
      path: ['DATABASE_DIRECT_URL'],
      message: 'needs DATABASE_URL, the pooled URL of the same database',
    });
  }
  // A schedule without a place to write would silently take no backups.
  for (const name of ['BACKUP_EVERY', 'BACKUP_KEEP'] as const) {
    if (env[name] !== undefined && env.BACKUP_DIR === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: [name],
        message: 'needs BACKUP_DIR, the directory scheduled backups are written to',
      });
    }
  }
  const bankAccounts: BankAccounts = {};
  for (const currency of currencies) {
    const variable = bankAccountVariable(currency);
    const setting = readBankAccountSetting(
      currency,
      currency === 'EUR' ? env.BANK_ACCOUNT_EUR : env.BANK_ACCOUNT_USD,
    );
    if (!setting.ok) ctx.addIssue({ code: 'custom', path: [variable], message: setting.message });
    // A published example IBAN is never offered to buyers on a public origin: their transfers
    // would go to a stranger's account (decision 218). Loopback (development, tests) keeps it.
    else if (
      setting.account &&
      !(isExampleIban(setting.account.iban) && !isLoopbackOrigin(publicBaseUrl))
    ) {
      bankAccounts[currency] = setting.account;
    }
  }
  const approvalAbove = readInvoiceApprovalAbove(env.INVOICE_APPROVAL_ABOVE);
  if (!approvalAbove.ok) {
    ctx.addIssue({
      code: 'custom',
      path: ['INVOICE_APPROVAL_ABOVE'],
      message: approvalAbove.message,
    });
  }
  if (ctx.issues.length > 0 || 'refused' in mail || !approvalAbove.ok) return z.NEVER;
  return {
    ...env,
    bankAccounts,
    invoiceApproval: {
      aboveMinor: approvalAbove.aboveMinor,
      firstOrder: env.INVOICE_APPROVAL_FIRST_ORDER,
    },
    mail,
    METRICS_HOST:
      env.METRICS_PORT === undefined ? undefined : (env.METRICS_HOST ?? DEFAULT_METRICS_HOST),
    PUBLIC_BASE_URL: publicBaseUrl,
    CONSOLE_ORIGIN: consoleOrigin.origin,
    ACCOUNT_API_URL: env.ACCOUNT_API_URL?.replace(/\/$/, ''),
    DOWNLOAD_BASE_URL: env.DOWNLOAD_BASE_URL.replace(/\/$/, ''),
    VIES_URL: env.VIES_URL.replace(/\/$/, ''),
    BACKUP_EVERY: env.BACKUP_DIR ? (env.BACKUP_EVERY ?? DEFAULT_BACKUP_EVERY_MS) : undefined,
    BACKUP_KEEP: env.BACKUP_KEEP ?? DEFAULT_BACKUP_KEEP,
    DATABASE_DIRECT_URL: env.DATABASE_DIRECT_URL ?? env.DATABASE_URL,
    databaseTimeouts: {
      statementTimeoutMs: env.DATABASE_STATEMENT_TIMEOUT_MS,
      idleInTransactionTimeoutMs: env.DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS,
    },
    payments,
    connectionLimits: {
      headersTimeoutMs: env.HTTP_HEADERS_TIMEOUT_SECONDS * 1000,
      requestTimeoutMs: env.HTTP_REQUEST_TIMEOUT_SECONDS * 1000,
      maxConnections: env.HTTP_MAX_CONNECTIONS,
    },
  };
});

export type Env = z.output<typeof envSchema> & {
  /** Unknown variables that look like a slip of a known one: a warning at start (decision 217). */
  nearMisses: NearMiss[];
};

/** Settings an admin command may run with but a server may not start with. */
const servingSchema = envSchema.superRefine((env, ctx) => {
  const missing = webhookSecretMissing(env);
  if (missing) ctx.addIssue({ code: 'custom', path: [], message: missing });
  // Files on a public origin only on purpose: else licence keys pile up on a disk unsent.
  if (mailSilentlyOnDisk(env)) {
    ctx.addIssue({
      code: 'custom',
      path: ['SMTP_URL'],
      message:
        `is not set, so e-mails (licence keys among them) would be written to` +
        ` ${path.join(env.DATA_DIR, 'mail')} and never sent on ${env.PUBLIC_BASE_URL}:` +
        ' set SMTP_URL, or MAIL_TRANSPORT=file to write them to disk on purpose',
    });
  }
});

/** The origin a server would announce, when it is set, well formed and beyond this machine. */
function publicOriginOf(source: Record<string, string>): string | undefined {
  const origin = source.PUBLIC_BASE_URL;
  if (origin === undefined || !httpUrl.safeParse(origin).success) return undefined;
  return isLoopbackOrigin(origin) ? undefined : origin.replace(/\/$/, '');
}

/** The variable a path-less message is about: the first known name it mentions. */
function variableNamedIn(message: string): string {
  return KNOWN_VARIABLES.find((name) => new RegExp(`\\b${name}\\b`).test(message)) ?? 'environment';
}

/**
 * Reads the environment once; empty strings count as unset. Throws a `StartupRefusal`, one line
 * naming every bad variable. `admin` (the admin CLI) also takes settings only a server refuses: a
 * Stripe secret key without its webhook secret (which `stripe sync` runs with), e-mails as files
 * on a public origin, and unknown variables that look like ours there, which a server refuses
 * and otherwise names in a warning (`nearMisses`, decision 217).
 */
export function parseEnv(
  source: Record<string, string | undefined> = process.env,
  purpose: 'serve' | 'admin' = 'serve',
): Env {
  const cleaned = Object.fromEntries(
    Object.entries(source).filter(
      (entry): entry is [string, string] => entry[1] !== undefined && entry[1] !== '',
    ),
  );
  const nearMisses = findNearMisses(Object.keys(cleaned), KNOWN_VARIABLES);
  const result = (purpose === 'serve' ? servingSchema : envSchema).safeParse(cleaned);
  const problems: Array<[variable: string, line: string]> = result.success
    ? []
    : result.error.issues.map((issue) => {
        const variable = issue.path.length === 0 ? undefined : issue.path.join('.');
        return [
          variable ?? variableNamedIn(issue.message),
          variable === undefined ? issue.message : `${variable}: ${issue.message}`,
        ];
      });
  const publicOrigin = purpose === 'serve' ? publicOriginOf(cleaned) : undefined;
  const [firstMiss] = nearMisses;
  if (firstMiss && (publicOrigin !== undefined || !result.success)) {
    const unknown = `unknown ${nearMisses.length === 1 ? 'variable' : 'variables'} ${describeNearMisses(nearMisses)}`;
    problems.unshift([
      firstMiss.name,
      publicOrigin === undefined
        ? unknown
        : `${unknown}, refused on the public origin ${publicOrigin}: rename or remove ${nearMisses.length === 1 ? 'it' : 'them'}`,
    ]);
  }
  const [first] = problems;
  if (first || !result.success) {
    throw new StartupRefusal(
      first?.[0] ?? 'environment',
      `Invalid environment: ${problems.map(([, line]) => line).join('; ')}`,
    );
  }
  return { ...result.data, nearMisses };
}
