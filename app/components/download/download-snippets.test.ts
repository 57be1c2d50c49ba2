import { describe, expect, it } from 'vitest';
import {
  dockerPullCommands,
  dockerRunCommand,
  githubActionsWorkflow,
  linuxInstallCommands,
} from './download-snippets.ts';

describe('download page snippets', () => {
  it('pins the Docker image to the release and shows latest too', () => {
    expect(dockerPullCommands('3.2.2')).toContain('docker pull orgsmith/cli:3.2.2\n');
    expect(dockerPullCommands('3.2.2')).toContain('docker pull orgsmith/cli:latest');
    expect(dockerRunCommand('3.2.2')).toBe(
      [
        'docker run --rm -it \\',
        '  -e ORGSMITH_ACCEPT_EULA=true \\',
        '  -e ORGSMITH_LICENSE_KEY \\',
        '  -v "$PWD":/repo -w /repo \\',
        '  orgsmith/cli:3.2.2 env:list',
      ].join('\n'),
    );
    // With no release published yet, the commands still work.
    expect(dockerRunCommand(undefined)).toContain('orgsmith/cli:latest env:list');
  });

  it('builds a workflow with the setup action, an access token from a secret and the EULA variable', () => {
    const workflow = githubActionsWorkflow('3.2.2', 'https://orgsmith.io/eula/cli');
    expect(workflow).toContain('      - uses: orgsmith/setup-orgsmith@v1\n');
    expect(workflow).toContain("          version: '3.2' # newest 3.2.x");
    // The argument the licence e-mail names; never the licence key in a pipeline (decision 217).
    expect(workflow).toContain(
      '      - run: orgsmith flow:out --environment uat --checkOnly --access-token ${{ secrets.ORGSMITH_ACCESS_TOKEN }}',
    );
    expect(workflow).not.toContain('ORGSMITH_LICENSE_KEY');
    expect(workflow).not.toContain('license-key');
    expect(workflow).toContain("      ORGSMITH_ACCEPT_EULA: 'true'");
    expect(workflow).toContain('https://orgsmith.io/eula/cli');
    expect(githubActionsWorkflow(undefined, 'x')).not.toContain('version:');
  });

  it('installs the Linux zip from its download link', () => {
    expect(
      linuxInstallCommands(
        'orgsmith-3.2.2-linux-x64.zip',
        'https://downloads.orgsmith.io/cli/orgsmith-3.2.2-linux-x64.zip',
      ).split('\n')[0],
    ).toBe('curl -fsSLO https://downloads.orgsmith.io/cli/orgsmith-3.2.2-linux-x64.zip');
  });
});
