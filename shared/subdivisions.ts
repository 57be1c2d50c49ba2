import type { CountryCode } from './countries.ts';

/**
 * The states, provinces and territories a postal address names in the countries whose addresses
 * need one (decision 219): the United States, Canada and Australia. Codes as their postal services
 * print them (ISO 3166-2 without the country prefix); names for the form's select.
 */
export const subdivisionsByCountry = {
  US: {
    AL: 'Alabama',
    AK: 'Alaska',
    AZ: 'Arizona',
    AR: 'Arkansas',
    CA: 'California',
    CO: 'Colorado',
    CT: 'Connecticut',
    DE: 'Delaware',
    DC: 'District of Columbia',
    FL: 'Florida',
    GA: 'Georgia',
    HI: 'Hawaii',
    ID: 'Idaho',
    IL: 'Illinois',
    IN: 'Indiana',
    IA: 'Iowa',
    KS: 'Kansas',
    KY: 'Kentucky',
    LA: 'Louisiana',
    ME: 'Maine',
    MD: 'Maryland',
    MA: 'Massachusetts',
    MI: 'Michigan',
    MN: 'Minnesota',
    MS: 'Mississippi',
    MO: 'Missouri',
    MT: 'Montana',
    NE: 'Nebraska',
    NV: 'Nevada',
    NH: 'New Hampshire',
    NJ: 'New Jersey',
    NM: 'New Mexico',
    NY: 'New York',
    NC: 'North Carolina',
    ND: 'North Dakota',
    OH: 'Ohio',
    OK: 'Oklahoma',
    OR: 'Oregon',
    PA: 'Pennsylvania',
    RI: 'Rhode Island',
    SC: 'South Carolina',
    SD: 'South Dakota',
    TN: 'Tennessee',
    TX: 'Texas',
    UT: 'Utah',
    VT: 'Vermont',
    VA: 'Virginia',
    WA: 'Washington',
    WV: 'West Virginia',
    WI: 'Wisconsin',
    WY: 'Wyoming',
    AS: 'American Samoa',
    GU: 'Guam',
    MP: 'Northern Mariana Islands',
    PR: 'Puerto Rico',
    VI: 'U.S. Virgin Islands',
  },
  CA: {
    AB: 'Alberta',
    BC: 'British Columbia',
    MB: 'Manitoba',
    NB: 'New Brunswick',
    NL: 'Newfoundland and Labrador',
    NS: 'Nova Scotia',
    NT: 'Northwest Territories',
    NU: 'Nunavut',
    ON: 'Ontario',
    PE: 'Prince Edward Island',
    QC: 'Quebec',
    SK: 'Saskatchewan',
    YT: 'Yukon',
  },
  AU: {
    ACT: 'Australian Capital Territory',
    NSW: 'New South Wales',
    NT: 'Northern Territory',
    QLD: 'Queensland',
    SA: 'South Australia',
    TAS: 'Tasmania',
    VIC: 'Victoria',
    WA: 'Western Australia',
  },
} as const satisfies Partial<Record<CountryCode, Record<string, string>>>;

export type CountryWithSubdivisions = keyof typeof subdivisionsByCountry;

/** Whether addresses in `country` need a state, province or territory. */
export function hasSubdivisions(country: string): country is CountryWithSubdivisions {
  return Object.hasOwn(subdivisionsByCountry, country);
}

/** What the field is called in `country`: "State", "Province or territory"… */
export function subdivisionLabel(country: CountryWithSubdivisions): string {
  return country === 'CA'
    ? 'Province or territory'
    : country === 'AU'
      ? 'State or territory'
      : 'State';
}

/** The subdivisions of `country` as select options, by name. */
export function subdivisionOptions(
  country: CountryWithSubdivisions,
): { code: string; name: string }[] {
  return Object.entries(subdivisionsByCountry[country])
    .map(([code, name]) => ({ code, name }))
    .sort((a, b) => a.name.localeCompare(b.name, 'en'));
}

export function isSubdivisionOf(country: string, state: string): boolean {
  return hasSubdivisions(country) && Object.hasOwn(subdivisionsByCountry[country], state);
}

/**
 * The line of an address with its postal code, city and state as the country's post writes it:
 * "San Francisco, CA 94105" (US), "Toronto ON M5V 2T6" (Canada), "Sydney NSW 2000" (Australia),
 * "20457 Hamburg" elsewhere.
 */
export function cityLine(address: {
  postalCode: string;
  city: string;
  country: string;
  state?: string | null | undefined;
}): string {
  const { postalCode, city, country, state } = address;
  if (country === 'US' && state) return `${city}, ${state} ${postalCode}`.trim();
  if ((country === 'CA' || country === 'AU') && state)
    return `${city} ${state} ${postalCode}`.trim();
  return [postalCode, city].filter(Boolean).join(' ');
}
