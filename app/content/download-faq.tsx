import { Link } from 'react-router';
import { ModalLink } from '../components/dialogs/ModalLink.tsx';
import type { FaqItem } from '../components/ui/Faq.tsx';
import { CodeBlock } from '../components/ui/CodeBlock.tsx';
import { siteConfig } from '#shared/site-config.ts';
import {
  ACCESS_TOKEN_ARGUMENT,
  EULA_ACCEPT_VARIABLE,
} from '../components/download/download-snippets.ts';

export interface DownloadFaqFacts {
  /** File names of the latest release, to make the checksum commands copy-ready. */
  windowsFile: string;
  macFile: string;
  linuxFile: string;
}

/** The download page's FAQ (docs/product-rules.md#pages): titles and bodies written from the spec's facts. */
export function downloadFaq({ windowsFile, macFile, linuxFile }: DownloadFaqFacts): FaqItem[] {
  const windowsCommand = `Get-FileHash .\\${windowsFile} -Algorithm SHA256`;
  const macCommand = `shasum -a 256 ${macFile}`;
  const linuxCommand = `sha256sum ${linuxFile}`;
  return [
    {
      title: 'Why does Windows warn me about the installer?',
      body: (
        <>
          <p>
            Our Windows installers and zips are not code-signed yet. Microsoft Defender SmartScreen
            warns about unsigned files it has not seen often, with the message{' '}
            <q>Windows protected your PC</q>.
          </p>
          <p>
            Verify the file&apos;s SHA-256 checksum first (see below). If it matches, choose{' '}
            <strong>More info</strong>, then <strong>Run anyway</strong>. If your company blocks
            unsigned installers, use the zip or the Docker image instead.
          </p>
        </>
      ),
      answerText:
        'The Windows builds are not code-signed yet, so SmartScreen may warn. Verify the SHA-256 checksum, then choose More info and Run anyway, or use the zip or the Docker image.',
    },
    {
      title: 'Which download do I need on a Mac with Apple Silicon?',
      body: (
        <p>
          The universal package: it runs natively on Apple Silicon (M1 and later) and on Intel Macs.
          The arm64 build works too. Avoid the x64 build on Apple Silicon: it is unreliable there,
          even under Rosetta 2. All macOS builds are signed and notarized.
        </p>
      ),
      answerText:
        'Use the universal package (or arm64). The x64 build is unreliable on Apple Silicon. All macOS builds are signed and notarized.',
    },
    {
      title: 'What do I need to run Orgsmith?',
      body: (
        <ul>
          <li>An operating system supported by .NET 8.0 (Windows, macOS or Linux).</li>
          <li>Git 2.39 or later.</li>
          <li>
            A Salesforce org with the Metadata API: Enterprise, Unlimited, Performance or Developer
            Edition, or Professional Edition with the Web Services API add-on.
          </li>
          <li>A Git repository for your metadata.</li>
        </ul>
      ),
      answerText:
        'An operating system supported by .NET 8.0, Git 2.39 or later, a Salesforce org with the Metadata API (Enterprise, Unlimited, Performance, Developer, or Professional with the Web Services API add-on) and a Git repository.',
    },
    {
      title: 'How do I verify a checksum?',
      body: (
        <div id="verify-checksum">
          <p>
            Compute the SHA-256 of the downloaded file and compare it with the value shown beside
            the download. If they differ, do not run the file: download it again.
          </p>
          <p>Windows (PowerShell):</p>
          <CodeBlock code={windowsCommand} label="Windows checksum command" language="powershell" />
          <p>macOS (Terminal):</p>
          <CodeBlock code={macCommand} label="macOS checksum command" language="sh" />
          <p>Linux:</p>
          <CodeBlock code={linuxCommand} label="Linux checksum command" language="sh" />
          <p>
            To check that the checksums themselves come from us, use the signed list of every
            release: see <a href="#verify-your-download">Verify your download</a>.
          </p>
        </div>
      ),
      answerText: `Compute the SHA-256 and compare it with the value beside the download. Windows: ${windowsCommand}. macOS: ${macCommand}. Linux: ${linuxCommand}. The signed SHA256SUMS of each release proves the checksums come from us (see Verify your download).`,
    },
    {
      title: 'Do I need a licence key?',
      body: (
        <p>
          Yes: every use of {siteConfig.productName} needs a licence key. You can{' '}
          <ModalLink modal="trial">start a free two-month trial</ModalLink> with no limits and no
          credit card, use the free Starter Edition, or choose Pro or Enterprise on the{' '}
          <Link to="/pricing">pricing page</Link>. The key arrives by e-mail.
        </p>
      ),
      answerText:
        'Yes, every use needs a licence key. Start a free two-month trial without a credit card, use the free Starter Edition, or buy Pro or Enterprise.',
    },
    {
      title: 'Can I use Orgsmith in CI pipelines and Docker?',
      body: (
        <p>
          Yes. Use the GitHub Actions setup action or the Docker image for linux/amd64 and
          linux/arm64, or unpack the zip in any other CI. Give pipelines an access token, not the
          licence key: keep it in your CI&apos;s secret store and pass it with{' '}
          <code>{ACCESS_TOKEN_ARGUMENT}</code>. Set <code>{EULA_ACCEPT_VARIABLE}=true</code> to
          accept the licence terms for unattended runs, and pin a version so every build uses the
          same CLI. The Docker and GitHub Actions tabs above have copy-ready examples.
        </p>
      ),
      answerText: `Yes: use the GitHub Actions setup action, the Docker image (linux/amd64 and linux/arm64) or the zip in any CI. Pass an access token from a secret with ${ACCESS_TOKEN_ARGUMENT}, set ${EULA_ACCEPT_VARIABLE}=true and pin a version.`,
    },
  ];
}
