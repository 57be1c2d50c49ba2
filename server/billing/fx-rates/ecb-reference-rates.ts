import { RATE_PATTERN } from './euro-amounts.ts';

/**
 * The ECB's euro foreign exchange reference rates as it publishes them in XML (decision 221):
 * `eurofxref-daily.xml` holds the latest working day, `eurofxref-hist-90d.xml` ninety days; both
 * nest `<Cube time="YYYY-MM-DD">` around `<Cube currency="USD" rate="1.0512"/>` rows.
 */

export const ECB_DAILY_RATES_URL = 'https://www.ecb.europa.eu/stats/eurofxref/eurofxref-daily.xml';

/** The source a rate fetched from the ECB is recorded under, and printed with. */
export const ECB_SOURCE = 'ECB';

export interface PublishedRate {
  currency: string;
  rateOn: string;
  perEur: string;
}

/** The file is about 2 KB a day: anything far larger is not the ECB's file. */
const MAX_BYTES = 2 * 1024 * 1024;

/** Every rate of the file; throws when it holds none (not the ECB's file, or an error page). */
export function parseEcbReferenceRates(xml: string): PublishedRate[] {
  const rates: PublishedRate[] = [];
  const days = xml.split(/<Cube\s+time\s*=\s*/).slice(1);
  for (const day of days) {
    const rateOn = /^["'](\d{4}-\d{2}-\d{2})["']/.exec(day)?.[1];
    if (!rateOn) continue;
    const body = day.split(/<\/Cube>/)[0] ?? '';
    for (const match of body.matchAll(
      /<Cube\s+currency\s*=\s*["']([A-Z]{3})["']\s+rate\s*=\s*["']([^"']+)["']/g,
    )) {
      const [, currency = '', perEur = ''] = match;
      if (RATE_PATTERN.test(perEur)) rates.push({ currency, rateOn, perEur });
    }
  }
  if (rates.length === 0) throw new Error('the file holds no ECB reference rates');
  return rates;
}

/** Fetches and parses the ECB's file at `url` (10 seconds, 2 MiB at most). */
export async function fetchEcbReferenceRates(
  url: string,
  fetchImpl: typeof fetch = fetch,
): Promise<PublishedRate[]> {
  const response = await fetchImpl(url, {
    signal: AbortSignal.timeout(10_000),
    headers: { accept: 'application/xml, text/xml' },
  });
  if (!response.ok) throw new Error(`${url} answered ${response.status}`);
  const declared = Number(response.headers.get('content-length') ?? 0);
  if (declared > MAX_BYTES)
    throw new Error(`${url} sent ${declared} bytes, more than the ECB's file`);
  const bytes = new Uint8Array(await response.arrayBuffer());
  if (bytes.byteLength > MAX_BYTES) throw new Error(`${url} sent more than the ECB's file`);
  return parseEcbReferenceRates(new TextDecoder().decode(bytes));
}
