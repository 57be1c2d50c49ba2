/**
 * The architecture, as lint rules (docs/decisions/114-layers-enforced-by-lint.md):
 *
 * - `shared/` imports nothing from `app/` or `server/`; `app/` imports nothing from `server/`.
 * - In `app/`, routes > content > components: `app/components/` imports nothing from `app/content/`
 *   or `app/routes/`, not even a type; components get their copy through props (decision 173).
 * - `drizzle-orm` only in `server/platform/db/` and `*-repository.ts`; `stripe` only in
 *   `server/billing/payments/stripe/`; `nodemailer` only in the mail transports of `server/platform/email/`.
 * - Other folders are reached by subpath imports (`#app/…`, `#server/…`, `#shared/…`), never by
 *   climbing more than one level (`../..`).
 *
 * ESLint applies the last matching block's `no-restricted-imports` whole, so each block below
 * states the complete list for its files, built from the same parts.
 */

const climbing = {
  group: ['../../*', '../../**'],
  message: 'Reach another folder with a subpath import (#app/…, #server/…, #shared/…), not ../../.',
};
// `regex`, not `group`: a group is a .gitignore pattern, where a leading `#` starts a comment.
const serverFromOutside = {
  regex: '^(?:#server/|(?:\\.\\./)+server/)',
  message: 'The site and the shared packages never import the server: move the type to shared/.',
};
const appFromShared = {
  regex: '^(?:#app/|(?:\\.\\./)+app/)',
  message: 'shared/ is used by both sides and imports nothing from app/.',
};
// From app/components/<folder>/, `../x/` is another component folder: only a deeper climb (which
// `climbing` refuses anyway) or a subpath import reaches app/content/ or app/routes/.
const contentFromComponents = {
  regex: '^(?:#app/|(?:\\.\\./){2,})(?:content|routes)/',
  message:
    'Components import nothing from app/content/ or app/routes/: take the copy as props, and keep the props types beside the component.',
};
const drizzle = {
  group: ['drizzle-orm', 'drizzle-orm/*'],
  message: 'Database access lives in *-repository.ts files (and server/platform/db/).',
};
const stripe = {
  name: 'stripe',
  message:
    'Only server/billing/payments/stripe/ talks to Stripe; use the PaymentProvider interface.',
};
const nodemailer = {
  name: 'nodemailer',
  message:
    'Only the mail transports of server/platform/email/ use nodemailer; queue mail in the outbox.',
};

/** The rule for a set of files: the forbidden patterns and vendor packages. */
function restrict({ patterns = [], paths = [] }) {
  return { 'no-restricted-imports': ['error', { patterns: [climbing, ...patterns], paths }] };
}

const vendors = { drizzle: [drizzle], stripe: [stripe], nodemailer: [nodemailer] };
const serverVendors = (allowed) => ({
  patterns: allowed === 'drizzle' ? [] : vendors.drizzle,
  paths: [
    ...(allowed === 'stripe' ? [] : vendors.stripe),
    ...(allowed === 'nodemailer' ? [] : vendors.nodemailer),
  ],
});

const mailTransports = [
  'server/platform/email/smtp-transport.ts',
  'server/platform/email/file-transport.ts',
  'server/platform/email/mail-transport.ts',
];
const testFiles = ['tests/**', '**/*.test.ts', '**/*.test.tsx'];

export const boundaryRules = [
  { files: ['**/*.{ts,tsx,js}'], rules: restrict({}) },
  {
    files: ['app/**/*.{ts,tsx}'],
    rules: restrict({
      patterns: [serverFromOutside, ...vendors.drizzle],
      paths: [...vendors.stripe, ...vendors.nodemailer],
    }),
  },
  {
    files: ['app/components/**/*.{ts,tsx}'],
    rules: restrict({
      patterns: [serverFromOutside, contentFromComponents, ...vendors.drizzle],
      paths: [...vendors.stripe, ...vendors.nodemailer],
    }),
  },
  {
    files: ['shared/**/*.{ts,tsx}'],
    rules: restrict({
      patterns: [serverFromOutside, appFromShared, ...vendors.drizzle],
      paths: [...vendors.stripe, ...vendors.nodemailer],
    }),
  },
  { files: ['server/**/*.{ts,tsx}'], rules: restrict(serverVendors(null)) },
  {
    files: ['server/platform/db/**/*.ts', 'server/**/*-repository.ts'],
    rules: restrict(serverVendors('drizzle')),
  },
  { files: ['server/billing/payments/stripe/**/*.ts'], rules: restrict(serverVendors('stripe')) },
  { files: mailTransports, rules: restrict(serverVendors('nodemailer')) },
  // Tests inspect tables and sign webhooks with the vendors' own helpers; they keep to subpaths.
  { files: testFiles, rules: restrict({}) },
];
