import type { ReactNode } from 'react';
import {
  CURRENT_SIGNING_KEY_PATH,
  SBOM_FILE,
  SHA256SUMS_FILE,
  SIGNATURE_FILE,
} from '#shared/downloads/verification.ts';
import { siteConfig } from '#shared/site-config.ts';

const { productName, securityEmail, vulnerabilityDisclosure } = siteConfig;

/**
 * The numbers the page states, each the value the code uses; `security.test.ts` checks them
 * against the service's own constants, so the page cannot drift from what runs.
 */
export const securityFacts = {
  certificateLifetimeDays: 30,
  retiredKeyPublishedDays: 31,
  linkHours: 24,
  backupEveryHours: 24,
  backupsKept: 7,
  retentionAfterEndMonths: 2,
  deletionNoticeMonths: 1,
  keySetPath: '/account/v1/.well-known/jwks.json',
  securityTxtPath: '/.well-known/security.txt',
} as const;

export interface SecuritySection {
  id: string;
  heading: string;
  body: ReactNode;
}

const facts = securityFacts;

/** `/security`: what a security review asks, in plain words, each answer true of the code (decision 188). */
export const securityContent = {
  eyebrow: 'Security',
  summary: `What a security review asks about ${productName}, answered plainly: how keys are kept, what a certificate proves, how to check a download, what we keep and for how long, and where to report a problem.`,
  sections: [
    {
      id: 'licence-keys',
      heading: 'Licence keys and access tokens',
      body: (
        <>
          <p>
            A licence key is 130 random bits with a checksum that catches a mistyped character. We
            never store the key itself: the database keeps only an HMAC-SHA256 of it under a secret
            of the service, so a copy of the database does not reveal any key.
          </p>
          <p>
            The key is shown once, in the licence e-mail. That e-mail waits in an outbox until it is
            sent; once sent, its text is deleted from the database.
          </p>
          <p>
            For CI you can create access tokens that stand in for the key. They are stored the same
            way (a keyed hash only), shown once when created, and can be revoked one by one. Each
            new token is announced by e-mail to the licence&apos;s address, with its name, time and
            client.
          </p>
          <p>
            A lost or leaked key is replaced through a link sent to the licence&apos;s e-mail
            address; the link works once and for {facts.linkHours} hours, and the old key stops
            working at once. So do the licence&apos;s access tokens, except those you choose to keep
            on the replacement page: a token made with a leaked key ends with it.
          </p>
        </>
      ),
    },
    {
      id: 'certificates',
      heading: 'What a licence certificate proves',
      body: (
        <>
          <p>
            When the CLI validates a licence for a Salesforce org, the service answers with a
            certificate signed with Ed25519. It names the licence, its edition and limits, the one
            org and the one product it was issued for, and when it stops being valid: after{' '}
            {facts.certificateLifetimeDays} days at most, or earlier when the licence ends.
          </p>
          <p>
            The signature covers every field, so a certificate cannot be moved to another org,
            widened to more orgs or a higher edition, or extended, without our private key. The
            public keys are published as a JWK set at <code>{facts.keySetPath}</code>; a retired key
            stays there for {facts.retiredKeyPublishedDays} days after it last signed, so a key
            change never invalidates a certificate.
          </p>
          <p>
            The licensing service receives the licence key or access token, the product id and the
            org id. Its API has no endpoint that takes your metadata, code or credentials.
          </p>
        </>
      ),
    },
    {
      id: 'releases',
      heading: 'Signed releases and how to check them',
      body: (
        <>
          <p>
            Every release has a <code>{SHA256SUMS_FILE}</code> list with the SHA-256 checksum of
            each file, and <code>{SIGNATURE_FILE}</code>, an Ed25519 signature of that list made
            with our release-signing key. The public key is at{' '}
            <code>{CURRENT_SIGNING_KEY_PATH}</code>, and the download page shows its fingerprint.
            Each release records the key that signed it, so releases signed with an earlier key stay
            verifiable with that key.
          </p>
          <p>
            To check a download: compare its checksum with the list, check the key&apos;s
            fingerprint, then check the list&apos;s signature with OpenSSL 3. The download page has
            the exact commands for Linux, macOS and Windows.
          </p>
          <p>
            <a href="/download#verify-your-download" className="button button-secondary">
              Verify your download
            </a>
          </p>
        </>
      ),
    },
    {
      id: 'sbom',
      heading: 'Software bill of materials',
      body: (
        <p>
          A release can carry a CycloneDX SBOM (<code>{SBOM_FILE}</code>) that lists every component
          it contains. We publish an SBOM only when it passes the official CycloneDX schema check
          and, where it names a version, names the release&apos;s own. When a release has one, the
          download page links it beside the checksums, and the release API names it (
          <code>sbomUrl</code>).
        </p>
      ),
    },
    {
      id: 'data',
      heading: 'What we keep, and where',
      body: (
        <>
          <p>
            For each licence we keep the e-mail address, the hash of the key and the expiry; for a
            paid licence also the plan and its quantity, the subscription status, and the customer
            and subscription ids at our payment provider. It all lives in one database of the
            account service.
          </p>
          <p>
            Card numbers never reach us: you enter them on the payment provider&apos;s own page, and
            we receive only the ids and the status of the subscription. The service providers that
            process data for us (hosting, payments, e-mail) are listed in the{' '}
            <a href="/privacy#recipients">privacy policy</a>.
          </p>
          <p>
            The service&apos;s data directory, which can hold the database, the signing keys and
            outgoing mail, is readable by the service&apos;s own user only: it tightens the
            permissions at every start and refuses to start when it cannot.
          </p>
        </>
      ),
    },
    {
      id: 'retention',
      heading: 'How long we keep it',
      body: (
        <p>
          A licence&apos;s data is kept while the licence exists. When it ends — a trial expires, a
          subscription is cancelled or a payment lapses — we keep it for{' '}
          {facts.retentionAfterEndMonths} months so it can be reactivated; then a scheduled job
          marks it for deletion and deletes it within {facts.deletionNoticeMonths} more month. The{' '}
          <a href="/privacy#retention">privacy policy</a> gives every period, including those tax
          law sets for invoices.
        </p>
      ),
    },
    {
      id: 'backups',
      heading: 'Backups',
      body: (
        <p>
          The account service writes a consistent snapshot of its whole database while it runs: on a
          schedule, every {facts.backupEveryHours} hours unless configured otherwise, keeping the
          newest {facts.backupsKept}. Its health check reports a backup that is overdue. A backup
          holds the same secrets as the database, so it is written readable by its owner only; a
          backup from an older version restores onto the current one.
        </p>
      ),
    },
    {
      id: 'report',
      heading: 'Reporting a vulnerability',
      body: (
        <>
          <p>
            Please report a vulnerability in the {productName} CLI, this website or the licensing
            service privately to <a href={`mailto:${securityEmail}`}>{securityEmail}</a>, not in a
            public issue or chat. Tell us what you found, how to reproduce it and what an attacker
            could gain; please leave real customer data out. Our{' '}
            <a href={facts.securityTxtPath}>security.txt</a> names the same address.
          </p>
          <ul>
            <li>
              We confirm your report within {vulnerabilityDisclosure.acknowledgeBusinessDays}{' '}
              business days.
            </li>
            <li>
              Within {vulnerabilityDisclosure.assessBusinessDays} business days we tell you how we
              assess it and when we expect a fix.
            </li>
            <li>
              We agree a disclosure date with you, at most {vulnerabilityDisclosure.disclosureDays}{' '}
              days after your report, and credit you in the release notes if you wish.
            </li>
            <li>
              We will not take legal action against research done in good faith that respects our
              customers&apos; data and stops at showing the problem.
            </li>
          </ul>
        </>
      ),
    },
  ] satisfies readonly SecuritySection[],
};
