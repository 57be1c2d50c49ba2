import { siteConfig } from '#shared/site-config.ts';

const { ci, links, cliName } = siteConfig;

/** Secret that holds the credentials key (auth:key:save) on CI runners. */
export const credentialsKeySecret = `${cliName.toUpperCase()}_CREDENTIALS_KEY`;

/**
 * A complete GitHub Actions workflow: validate pull requests into uat with --checkOnly, deploy when
 * they are merged. The CI feature page shows it; the download page's GitHub Actions tab may too.
 */
export const githubActionsWorkflow = `name: Salesforce uat

on:
  pull_request:
    branches: [uat]
  push:
    branches: [uat]

env:
  ${ci.eulaAcceptanceVariable}: 'true'

jobs:
  salesforce:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
        with:
          fetch-depth: 0

      - uses: ${links.setupAction}

      - name: Unlock stored credentials
        run: echo "$${credentialsKeySecret}" | ${cliName} auth:key:save
        env:
          ${credentialsKeySecret}: \${{ secrets.${credentialsKeySecret} }}

      - name: Validate the pull request
        if: github.event_name == 'pull_request'
        run: ${cliName} flow:out --environment uat --checkOnly ${ci.accessTokenArgument} \${{ secrets.${ci.accessTokenSecret} }}

      - name: Deploy to uat
        if: github.event_name == 'push'
        run: ${cliName} flow:out --environment uat ${ci.accessTokenArgument} \${{ secrets.${ci.accessTokenSecret} }}
`;

/** `docker run` of a pinned image version (the newest release, from the catalog). */
export const dockerRunExample = (version: string) => `docker run --rm \\
  -v "$PWD:/workspace" -w /workspace \\
  -e ${ci.eulaAcceptanceVariable}=true \\
  ${links.dockerImage}:${version} \\
  flow:out --environment uat --checkOnly ${ci.accessTokenArgument} "$${ci.accessTokenSecret}"`;

/** A GitLab CI job on a pinned image version (the newest release, from the catalog). */
export const gitlabCiExample = (version: string) => `# .gitlab-ci.yml
validate-uat:
  image:
    name: ${links.dockerImage}:${version}
    entrypoint: ['']
  variables:
    ${ci.eulaAcceptanceVariable}: 'true'
  script:
    - ${cliName} flow:out --environment uat --checkOnly ${ci.accessTokenArgument} "$${ci.accessTokenSecret}"
  rules:
    - if: $CI_PIPELINE_SOURCE == 'merge_request_event'`;
