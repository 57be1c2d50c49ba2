import { siteConfig } from '#shared/site-config.ts';

/** Names of the unattended-run settings, from the site config (also used by the CI feature page). */
export const {
  eulaAcceptanceVariable: EULA_ACCEPT_VARIABLE,
  licenseKeyVariable: LICENSE_KEY_VARIABLE,
  licenseKeyInput: LICENSE_KEY_INPUT,
  accessTokenArgument: ACCESS_TOKEN_ARGUMENT,
  accessTokenSecret: ACCESS_TOKEN_SECRET,
} = siteConfig.ci;

/** The image tag a pinned command uses: the latest version, or `latest` when none is known. */
function pinnedTag(version: string | undefined): string {
  return version ?? 'latest';
}

export function dockerPullCommands(version: string | undefined): string {
  const image = siteConfig.links.dockerImage;
  return [
    `# Pinned: the same CLI on every run`,
    `docker pull ${image}:${pinnedTag(version)}`,
    ``,
    `# Always the newest release`,
    `docker pull ${image}:latest`,
  ].join('\n');
}

export function dockerRunCommand(version: string | undefined): string {
  const image = siteConfig.links.dockerImage;
  return [
    `docker run --rm -it \\`,
    `  -e ${EULA_ACCEPT_VARIABLE}=true \\`,
    `  -e ${LICENSE_KEY_VARIABLE} \\`,
    `  -v "$PWD":/repo -w /repo \\`,
    `  ${image}:${pinnedTag(version)} env:list`,
  ].join('\n');
}

/** `3.2.2` → `3.2`: the action installs the newest patch of that minor version. */
function minorLine(version: string | undefined): string | undefined {
  const match = version ? /^(\d+\.\d+)\./.exec(version) : null;
  return match?.[1];
}

export function githubActionsWorkflow(version: string | undefined, eulaUrl: string): string {
  const minor = minorLine(version);
  return [
    `name: Validate Salesforce deployment`,
    ``,
    `on:`,
    `  pull_request:`,
    `    branches: [main]`,
    ``,
    `jobs:`,
    `  validate:`,
    `    runs-on: ubuntu-latest`,
    `    env:`,
    `      # Accepts the licence terms (${eulaUrl}) for unattended runs.`,
    `      ${EULA_ACCEPT_VARIABLE}: 'true'`,
    `    steps:`,
    `      - uses: actions/checkout@v4`,
    `        with:`,
    `          fetch-depth: 0`,
    `      - uses: ${siteConfig.links.setupAction}`,
    ...(minor
      ? [
          `        with:`,
          `          version: '${minor}' # newest ${minor}.x; leave out for the latest release`,
        ]
      : []),
    // An access token, not the licence key: revocable on its own (decision 217).
    `      - run: ${siteConfig.cliName} flow:out --environment uat --checkOnly ${ACCESS_TOKEN_ARGUMENT} \${{ secrets.${ACCESS_TOKEN_SECRET} }}`,
  ].join('\n');
}

export function linuxInstallCommands(fileName: string, downloadUri: string): string {
  return [
    `curl -fsSLO ${downloadUri}`,
    `sha256sum ${fileName}`,
    `unzip -q ${fileName} -d ~/.local/share/${siteConfig.cliName}`,
    `export PATH="$HOME/.local/share/${siteConfig.cliName}:$PATH"`,
    `${siteConfig.cliName} --version`,
  ].join('\n');
}

/** A stable link for scripts: always redirects to the newest release's file. */
export function latestDownloadCommand(
  publicBaseUrl: string,
  fileName: string,
  path: string,
): string {
  return `curl -fsSL -o ${fileName} ${publicBaseUrl}${path}`;
}
