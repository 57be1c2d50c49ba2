import { addDays, calendarDateIn, isCalendarDate } from '#server/billing/calendar-date.ts';
import {
  AdminError,
  EXIT_OK,
  type AdminCommand,
  type CommandSettings,
} from '#server/platform/commands/command.ts';
import { printTable } from '#server/platform/commands/command-io.ts';
import { isCurrency } from '#shared/pricing/index.ts';
import { siteConfig } from '#shared/site-config.ts';
import { ECB_DAILY_RATES_URL, ECB_SOURCE } from './ecb-reference-rates.ts';
import { normalizeRate, rateTextSchema } from './euro-amounts.ts';
import { createFxRateRepository } from './fx-rate-repository.ts';
import { recordEcbRates } from './record-ecb-rates.ts';

interface FxRateCommandSettings extends CommandSettings {
  ECB_RATES_URL?: string | undefined;
}

/** A currency we sell in other than the euro, upper case; a usage error otherwise. */
function foreignCurrency(text: string | undefined): string {
  const currency = (text ?? '').toUpperCase();
  if (!isCurrency(currency) || currency === 'EUR') {
    throw new AdminError(`"${text ?? ''}" is not a currency with a rate to the euro: name USD.`, 2);
  }
  return currency;
}

function day(text: string | undefined, what: string): string {
  if (!text || !isCalendarDate(text)) {
    throw new AdminError(`${what} must be a date like 2026-11-27, got "${text ?? ''}".`, 2);
  }
  return text;
}

/** Letters, digits, spaces and `.-/`: a source is printed on invoices. */
const SOURCE_PATTERN = /^[A-Za-z0-9][A-Za-z0-9 .\-/]{0,39}$/;

const set: AdminCommand<FxRateCommandSettings> = {
  name: 'fx-rates set',
  summary: 'Record a rate to the euro: fx-rates set USD 2026-11-27 1.0512 --source ECB',
  details: [
    'Records the rate of <currency> on <date> as <units of the currency per 1 EUR>, the way the ECB',
    'publishes its reference rates (decision 221). USD invoices and receipts with German VAT state',
    'the VAT in EUR at the latest rate dated on or before their issue date, copied into the',
    'document when issued: recording or replacing a rate later changes no issued document.',
    'A different rate for a day already recorded needs --replace.',
  ].join('\n'),
  arguments: [
    { name: 'currency', description: 'USD' },
    { name: 'date', description: 'The day the rate is of (YYYY-MM-DD)' },
    { name: 'rate', description: 'Units of the currency per 1 EUR, e.g. 1.0512' },
  ],
  options: {
    source: {
      type: 'string',
      description: 'Where the rate is from, printed with it (default ECB)',
    },
    replace: { type: 'boolean', description: 'Replace a different rate recorded for that day' },
  },
  async run(context, { args, options }) {
    const [currencyText, dateText, rateText] = args;
    const currency = foreignCurrency(currencyText);
    const rateOn = day(dateText, 'The date');
    const today = calendarDateIn(context.now(), siteConfig.company.timeZone);
    if (rateOn > today)
      throw new AdminError(`${rateOn} is in the future: no rate is known yet.`, 2);
    const parsedRate = rateTextSchema.safeParse(rateText ?? '');
    if (!parsedRate.success) {
      throw new AdminError(
        `The rate must be ${parsedRate.error.issues[0]?.message ?? 'a number like 1.0512'}, got "${rateText ?? ''}".`,
        2,
      );
    }
    const source = typeof options.source === 'string' ? options.source.trim() : ECB_SOURCE;
    if (!SOURCE_PATTERN.test(source)) {
      throw new AdminError('--source must be 1–40 letters, digits, spaces or . - /, e.g. ECB.', 2);
    }
    const perEur = normalizeRate(parsedRate.data);
    const outcome = await createFxRateRepository(await context.database()).record(
      {
        currency,
        rateOn,
        perEur,
        source,
        recordedAt: context.now(),
        recordedBy: 'fx-rates set',
      },
      options.replace === true,
    );
    if (outcome === 'conflict') {
      throw new AdminError(
        `Another ${currency} rate or source is recorded for ${rateOn}; add --replace to replace it (issued documents keep theirs).`,
      );
    }
    context.io.out(
      `${outcome === 'unchanged' ? 'Already recorded' : outcome === 'replaced' ? 'Replaced' : 'Recorded'}: 1 EUR = ${perEur} ${currency} on ${rateOn} (${source}).`,
    );
    return EXIT_OK;
  },
};

const list: AdminCommand<FxRateCommandSettings> = {
  name: 'fx-rates list',
  summary: 'List the recorded rates to the euro, newest first (default: the last 31 days)',
  options: {
    from: { type: 'string', description: 'First day (YYYY-MM-DD)' },
    to: { type: 'string', description: 'Last day (YYYY-MM-DD, default today)' },
    json: { type: 'boolean', description: 'Print JSON' },
  },
  async run(context, { options }) {
    const today = calendarDateIn(context.now(), siteConfig.company.timeZone);
    const to = options.to === undefined ? today : day(String(options.to), '--to');
    const from =
      options.from === undefined ? addDays(to, -30) : day(String(options.from), '--from');
    if (from > to) throw new AdminError(`--from ${from} is after --to ${to}.`, 2);
    const rows = await createFxRateRepository(await context.database()).list({ from, to });
    if (options.json === true) {
      context.io.out(
        JSON.stringify(
          rows.map((row) => ({ ...row, perEur: normalizeRate(row.perEur) })),
          null,
          2,
        ),
      );
      return EXIT_OK;
    }
    if (rows.length === 0) {
      context.io.out(`No rates recorded from ${from} to ${to}.`);
      return EXIT_OK;
    }
    printTable(
      context,
      ['DATE', 'CURRENCY', 'PER 1 EUR', 'SOURCE', 'RECORDED BY'],
      rows.map((row) => [
        row.rateOn,
        row.currency,
        normalizeRate(row.perEur),
        row.source,
        row.recordedBy,
      ]),
    );
    return EXIT_OK;
  },
};

const fetchRates: AdminCommand<FxRateCommandSettings> = {
  name: 'fx-rates fetch',
  summary: "Record the ECB's reference rates from its daily file (ECB_RATES_URL or the ECB's)",
  details: [
    "Fetches the ECB's euro reference rates (--url, else ECB_RATES_URL, else the ECB's",
    'eurofxref-daily.xml; eurofxref-hist-90d.xml works too) and records the rate of each currency',
    'we sell in, source ECB. A day already recorded with the same rate is left alone; a different',
    'one is reported and kept unless --replace. With ECB_RATES_URL set the service does this every',
    'hour by itself.',
  ].join('\n'),
  options: {
    url: { type: 'string', description: 'Fetch this file instead of ECB_RATES_URL' },
    replace: { type: 'boolean', description: 'Replace rates recorded differently before' },
  },
  async run(context, { options }) {
    const url =
      typeof options.url === 'string'
        ? options.url
        : (context.env.ECB_RATES_URL ?? ECB_DAILY_RATES_URL);
    if (!/^https?:\/\/\S+$/.test(url)) throw new AdminError('--url must be an http(s) URL.', 2);
    let results;
    try {
      results = await recordEcbRates(await context.database(), {
        url,
        now: context.now(),
        recordedBy: 'fx-rates fetch',
        replace: options.replace === true,
      });
    } catch (error) {
      throw new AdminError(
        `Could not read the ECB's rates from ${url}: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
    if (results.length === 0) {
      throw new AdminError(`The file at ${url} holds no USD rate up to today.`);
    }
    for (const result of results) {
      context.io.out(
        `${result.rateOn} ${result.currency} ${result.perEur}: ${result.outcome === 'conflict' ? 'a different rate is recorded, kept (--replace replaces it)' : result.outcome}`,
      );
    }
    return results.some((result) => result.outcome === 'conflict') ? 1 : EXIT_OK;
  },
};

/** Rates to the euro (decision 221), listed by the billing manifest. */
export const fxRateAdminCommands: readonly AdminCommand<FxRateCommandSettings>[] = [
  set,
  list,
  fetchRates,
];
