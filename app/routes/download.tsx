import { useMemo, useState } from 'react';
import type { Route } from './+types/download.ts';
import { siteContext } from '../context.ts';
import { pages } from '../pages.ts';
import { metaFor } from '../root-data.ts';
import {
  findArtifact,
  type DownloadSelection,
  type OperatingSystem,
  type Release,
} from '#shared/downloads/catalog.ts';
import { artifactFileName } from '#shared/downloads/file-names.ts';
import { RELEASE_FEED_PATH } from '#shared/downloads/paths.ts';
import { signingKeyIdOf } from '#shared/downloads/verification.ts';
import {
  downloadOperatingSystem,
  suggestForOperatingSystem,
} from '#shared/downloads/suggest-download.ts';
import { pickLatestRelease } from '#shared/downloads/versions.ts';
import { siteConfig } from '#shared/site-config.ts';
import { downloadFaq } from '../content/download-faq.tsx';
import { platformNotes } from '../content/download-notes.tsx';
import { ChangeLog } from '../components/download/ChangeLog.tsx';
import { useVisitorPlatform } from '../components/download/client-platform.ts';
import { DownloadHero, OTHER_OPTIONS_ANCHOR } from '../components/download/DownloadHero.tsx';
import {
  DockerPanel,
  GithubActionsPanel,
  OsPanel,
} from '../components/download/PlatformPanels.tsx';
import { Faq } from '../components/ui/Faq.tsx';
import { Tabs, type TabItem } from '../components/ui/Tabs.tsx';
import { VerifyDownload } from '../components/download/VerifyDownload.tsx';
import styles from '../components/download/DownloadPage.module.css';
import { keepDataWhileDialogsChange } from '../components/dialogs/revalidation.ts';

export const meta = metaFor(pages.download);

export const links: Route.LinksFunction = () => [
  {
    rel: 'alternate',
    type: 'application/atom+xml',
    href: RELEASE_FEED_PATH,
    title: `${siteConfig.productName} CLI releases`,
  },
];

// Opening or closing a dialog keeps the page's data (no round trip, no second lookup).
export const shouldRevalidate = keepDataWhileDialogsChange;

export async function loader({ context }: Route.LoaderArgs) {
  const site = context.get(siteContext);
  // Read per request: a newly published release shows without a rebuild or restart.
  const releases = await site.services.releases.listReleases();
  const latest = pickLatestRelease(releases);
  return {
    latest: latest ?? null,
    // Older releases need only their change-log text, not every file.
    changeLog: releases.map(({ version, releaseDate, prerelease, notes }) => ({
      version,
      releaseDate,
      prerelease,
      notes,
    })),
    publicBaseUrl: site.publicBaseUrl,
    // The key that signed the latest release, with its fingerprint (decision 140).
    signingKey: await describeSigningKey(latest?.signingKeyUrl),
  };

  async function describeSigningKey(url: string | undefined) {
    const keyId = url ? signingKeyIdOf(url) : undefined;
    return (keyId && (await site.services.releaseSigningKeys?.describe(keyId))) || null;
  }
}

/** The file the PowerShell check names: the Windows x64 installer, else the first file. */
function windowsFileOf(release: Release) {
  return (
    findArtifact(release, { operatingSystem: 'Windows', architecture: 'x64', format: 'msi' }) ??
    release.artifacts.find((artifact) => artifact.operatingSystem === 'Windows') ??
    release.artifacts[0]
  );
}

type TabKey = 'windows' | 'macos' | 'linux' | 'docker' | 'github-actions';

const osTabs: ReadonlyArray<[TabKey, OperatingSystem]> = [
  ['windows', 'Windows'],
  ['macos', 'macOS'],
  ['linux', 'Linux'],
];

function tabOf(os: OperatingSystem): TabKey {
  return osTabs.find(([, name]) => name === os)?.[0] ?? 'windows';
}

function osOfTab(tab: TabKey): OperatingSystem | undefined {
  return osTabs.find(([key]) => key === tab)?.[1];
}

export default function DownloadPage({ loaderData }: Route.ComponentProps) {
  const { latest, changeLog, publicBaseUrl, signingKey } = loaderData;
  const release = latest ?? undefined;
  // The page is the same for every visitor (Windows, the spec's default); the browser then
  // suggests for its own system (decision 100).
  const platform = useVisitorPlatform();
  // Until the visitor picks a tab, the tab follows the detected system (refined in the browser).
  const [chosenTab, setChosenTab] = useState<TabKey | null>(null);
  // Docker and GitHub Actions have no file of their own: the suggestion stays with the last OS.
  const [chosenOs, setChosenOs] = useState<OperatingSystem | null>(null);
  const detectedOs = downloadOperatingSystem(platform);
  const tab = chosenTab ?? tabOf(detectedOs);
  const suggestedOs = chosenOs ?? detectedOs;
  const selection = suggestForOperatingSystem(suggestedOs, platform.cpu);
  const suggested = release ? findArtifact(release, selection) : undefined;
  const windowsFile = release ? windowsFileOf(release) : undefined;

  const faq = useMemo(() => {
    // The checksum examples use the most common file of each system.
    const fileOf = (selection: DownloadSelection) =>
      (release && findArtifact(release, selection)?.fileName) ??
      artifactFileName(release?.version ?? 'x.y.z', selection);
    return downloadFaq({
      windowsFile: fileOf({ operatingSystem: 'Windows', architecture: 'x64', format: 'msi' }),
      macFile: fileOf({ operatingSystem: 'macOS', architecture: 'universal', format: 'pkg' }),
      linuxFile: fileOf({ operatingSystem: 'Linux', architecture: 'x64', format: 'zip' }),
    });
  }, [release]);

  const items: TabItem<TabKey>[] = [
    ...osTabs.map(([key, os]) => ({
      key,
      label: os,
      panel: (
        <OsPanel
          os={os}
          notes={platformNotes[os]}
          release={release}
          suggested={os === suggestedOs ? selection : undefined}
          publicBaseUrl={publicBaseUrl}
        />
      ),
    })),
    { key: 'docker', label: 'Docker', panel: <DockerPanel version={release?.version} /> },
    {
      key: 'github-actions',
      label: 'GitHub Actions',
      panel: <GithubActionsPanel version={release?.version} publicBaseUrl={publicBaseUrl} />,
    },
  ];

  return (
    <>
      <DownloadHero release={release} suggested={suggested} />
      <section
        id={OTHER_OPTIONS_ANCHOR}
        className={`container section ${styles.options}`}
        aria-labelledby="other-options-title"
      >
        <h2 id="other-options-title">Other options</h2>
        <p className="lead">
          Every file of {siteConfig.productName} {release?.version ?? ''} with its SHA-256 checksum,
          the Docker image and the GitHub Action.
        </p>
        <Tabs
          label="Downloads by platform"
          items={items}
          selected={tab}
          onSelect={(key) => {
            setChosenTab(key);
            const os = osOfTab(key);
            if (os) setChosenOs(os);
          }}
        />
      </section>
      {release && windowsFile && (
        <VerifyDownload
          release={release}
          windowsFile={windowsFile}
          signingKey={signingKey ?? undefined}
        />
      )}
      <ChangeLog
        entries={changeLog}
        latestVersion={release?.version}
        feedPath={RELEASE_FEED_PATH}
      />
      <section className={`container section ${styles.faq}`} aria-labelledby="download-faq-title">
        <h2 id="download-faq-title">Frequently asked questions</h2>
        <Faq items={faq} />
      </section>
    </>
  );
}
