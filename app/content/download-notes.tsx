import type { OperatingSystem } from '#shared/downloads/catalog.ts';
import type { PlatformNote } from '../components/download/PlatformPanels.tsx';

/** The notes above each operating system's downloads (docs/product-rules.md#pages). */
export const platformNotes: Record<OperatingSystem, PlatformNote> = {
  Windows: {
    title: 'Unsigned installers: what to do when SmartScreen warns',
    body: (
      <>
        <p>
          The Windows builds are not code-signed yet, so Microsoft Defender SmartScreen may stop the
          installer with <q>Windows protected your PC</q>. Compare the file&apos;s SHA-256 with the
          one shown here (see <a href="#verify-checksum">how to verify a checksum</a>), then choose{' '}
          <strong>More info</strong> and <strong>Run anyway</strong>. Your browser may also ask you
          to keep the download first.
        </p>
        <p>
          Choose x64 for 64-bit Windows, including Windows on ARM, and x86 for 32-bit Windows. Where
          you cannot run installers, the zip holds the same CLI: unpack it and add the folder to
          your <code>PATH</code>.
        </p>
      </>
    ),
  },
  macOS: {
    title: 'Universal is recommended',
    body: (
      <>
        <p>
          The universal package runs natively on Apple Silicon and on Intel Macs, so it is the right
          choice on any Mac. The arm64 and x64 builds are smaller but run on one kind of Mac only.
          The x64 build is unreliable on Apple Silicon, even under Rosetta 2: on an M-series Mac use
          universal or arm64.
        </p>
        <p>
          Packages and binaries are signed and notarized by Apple, so Gatekeeper opens them without
          a warning.
        </p>
      </>
    ),
  },
  Linux: {
    title: 'One zip, no installer',
    body: (
      <p>
        Pick x64 for Intel and AMD machines, arm64 for ARM servers and boards such as AWS Graviton
        or a Raspberry Pi with a 64-bit system. Unpack the zip anywhere and put the folder on your{' '}
        <code>PATH</code>. Orgsmith runs on every distribution that .NET 8 supports and needs Git
        2.39 or later.
      </p>
    ),
  },
};
