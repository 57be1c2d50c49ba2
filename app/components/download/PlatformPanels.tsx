import type { ReactNode } from 'react';
import type { DownloadSelection, OperatingSystem, Release } from '#shared/downloads/catalog.ts';
import { latestDownloadPath } from '#shared/downloads/paths.ts';
import { siteConfig } from '#shared/site-config.ts';
import {
  dockerPullCommands,
  dockerRunCommand,
  githubActionsWorkflow,
  ACCESS_TOKEN_ARGUMENT,
  ACCESS_TOKEN_SECRET,
  LICENSE_KEY_INPUT,
  latestDownloadCommand,
  linuxInstallCommands,
} from './download-snippets.ts';
import { CodeBlock } from '../ui/CodeBlock.tsx';
import { ArtifactList } from './ArtifactList.tsx';
import styles from './PlatformPanels.module.css';

/** The notes above an operating system's downloads (`app/content/download-notes.tsx`). */
export interface PlatformNote {
  title: string;
  body: ReactNode;
}

interface OsPanelProps {
  os: OperatingSystem;
  notes: PlatformNote;
  release: Release | undefined;
  suggested: DownloadSelection | undefined;
  publicBaseUrl: string;
}

/** A Windows, macOS or Linux tab: its notes, then every file of the current release. */
export function OsPanel({ os, notes, release, suggested, publicBaseUrl }: OsPanelProps) {
  const artifacts = release?.artifacts.filter((a) => a.operatingSystem === os) ?? [];
  const linuxZip = artifacts.find((a) => a.architecture === 'x64') ?? artifacts[0];
  return (
    <div className={styles.panel}>
      <div className={styles.notes}>
        <h3>{notes.title}</h3>
        {notes.body}
      </div>
      {release ? (
        <ArtifactList artifacts={artifacts} suggested={suggested} />
      ) : (
        <p>No release has been published yet.</p>
      )}
      {os === 'Linux' && linuxZip && (
        <>
          <h3>Install from a terminal</h3>
          <CodeBlock
            code={linuxInstallCommands(linuxZip.fileName, linuxZip.downloadUri)}
            label="Linux install commands"
            language="sh"
          />
          <p>
            Scripts that should always fetch the newest release can use the stable link, which
            redirects to the current file:
          </p>
          <CodeBlock
            code={latestDownloadCommand(
              publicBaseUrl,
              `${siteConfig.cliName}.zip`,
              latestDownloadPath(linuxZip),
            )}
            label="download command for the latest release"
            language="sh"
          />
        </>
      )}
    </div>
  );
}

export function DockerPanel({ version }: { version: string | undefined }) {
  return (
    <div className={styles.panel}>
      <div className={styles.notes}>
        <h3>Docker image for {siteConfig.ci.dockerPlatforms.join(' and ')}</h3>
        <p>
          <a href={siteConfig.links.containerRegistry}>{siteConfig.links.dockerImage}</a> is one
          multi-architecture image: Docker pulls the {siteConfig.ci.dockerPlatforms.join(' or ')}{' '}
          variant that fits your machine. Pin a version tag in pipelines so every run uses the same
          CLI; <code>latest</code> follows each new release.
        </p>
      </div>
      <h3>Pull</h3>
      <CodeBlock code={dockerPullCommands(version)} label="docker pull commands" language="sh" />
      <h3>Run</h3>
      <p>
        Mount your repository as the working directory, pass your licence key from the environment
        and accept the licence terms with an environment variable:
      </p>
      <CodeBlock code={dockerRunCommand(version)} label="docker run command" language="sh" />
    </div>
  );
}

export function GithubActionsPanel({
  version,
  publicBaseUrl,
}: {
  version: string | undefined;
  publicBaseUrl: string;
}) {
  return (
    <div className={styles.panel}>
      <div className={styles.notes}>
        <h3>Set up {siteConfig.productName} in a workflow</h3>
        <p>
          The <a href={siteConfig.links.ciMarketplaceAction}>setup action</a> installs the CLI on
          the runner. Pipelines authenticate with an access token, not your licence key: create one
          as the licence e-mail shows, store it as a repository or organisation secret named{' '}
          <code>{ACCESS_TOKEN_SECRET}</code> and pass it with the CLI&apos;s{' '}
          <code>{ACCESS_TOKEN_ARGUMENT}</code> argument, which replaced the licence-key arguments in
          3.2.1. A token can be revoked without changing the key; never commit either. The
          action&apos;s <code>{LICENSE_KEY_INPUT}</code> input takes the key itself, so a pipeline
          that passes a token leaves it out. The environment variable accepts the licence terms for
          unattended runs.
        </p>
      </div>
      <CodeBlock
        code={githubActionsWorkflow(version, `${publicBaseUrl}/eula/cli`)}
        label="GitHub Actions workflow"
        language="yaml"
      />
    </div>
  );
}
