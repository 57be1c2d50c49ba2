import type { Release } from '#shared/downloads/catalog.ts';
import { RELEASE_FEED_PATH } from '#shared/downloads/paths.ts';
import { noteSegments, releaseAnchor } from '#shared/downloads/release-notes.ts';
import { SHA256SUMS_FILE, SIGNATURE_FILE } from '#shared/downloads/verification.ts';
import { siteConfig } from '#shared/site-config.ts';

function escapeXml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

function releaseTimestamp(release: Release): string {
  return `${release.releaseDate}T00:00:00Z`;
}

/** The entry body as HTML (escaped once more when placed in `<content type="html">`). */
function entryHtml(release: Release): string {
  const notes = release.notes
    .map(
      (note) =>
        `<li>${noteSegments(note)
          .map((part) =>
            part.code ? `<code>${escapeXml(part.text)}</code>` : escapeXml(part.text),
          )
          .join('')}</li>`,
    )
    .join('');
  const files = release.artifacts
    .map(
      (artifact) =>
        `<li><a href="${escapeXml(artifact.downloadUri)}">${escapeXml(artifact.description)}</a>` +
        ` — SHA-256 <code>${artifact.sha256}</code></li>`,
    )
    .join('');
  const verify = verificationLinks(release)
    .map((link) => `<a href="${escapeXml(link.href)}">${escapeXml(link.title)}</a>`)
    .join(' · ');
  return `<ul>${notes}</ul>${files ? `<p>Downloads:</p><ul>${files}</ul>` : ''}<p>Verify: ${verify}</p>`;
}

/** The files that verify a release (decision 140), as the entry's related links. */
function verificationLinks(release: Release): Array<{ href: string; title: string; type: string }> {
  return [
    { href: release.sha256SumsUrl, title: SHA256SUMS_FILE, type: 'text/plain' },
    { href: release.signatureUrl, title: SIGNATURE_FILE, type: 'application/octet-stream' },
    { href: release.signingKeyUrl, title: 'signing key', type: 'application/x-pem-file' },
    ...(release.sbomUrl
      ? [{ href: release.sbomUrl, title: 'SBOM', type: 'application/vnd.cyclonedx+json' }]
      : []),
  ];
}

/** An Atom 1.0 feed (RFC 4287) of every release, newest first; `now` dates an empty feed. */
export function renderReleaseFeed(releases: Release[], publicBaseUrl: string, now: Date): string {
  const pageUrl = `${publicBaseUrl}/download`;
  const updated = releases[0] ? releaseTimestamp(releases[0]) : now.toISOString();
  const entries = releases.map((release) => {
    const url = `${pageUrl}#${releaseAnchor(release.version)}`;
    const title = `${siteConfig.productName} ${release.version}${release.prerelease ? ' (pre-release)' : ''}`;
    return [
      '  <entry>',
      `    <id>${escapeXml(url)}</id>`,
      `    <title>${escapeXml(title)}</title>`,
      `    <updated>${releaseTimestamp(release)}</updated>`,
      `    <published>${releaseTimestamp(release)}</published>`,
      `    <link rel="alternate" type="text/html" href="${escapeXml(url)}"/>`,
      ...verificationLinks(release).map(
        (link) =>
          `    <link rel="related" type="${link.type}" title="${escapeXml(link.title)}" href="${escapeXml(link.href)}"/>`,
      ),
      ...(release.prerelease ? ['    <category term="prerelease"/>'] : []),
      `    <content type="html">${escapeXml(entryHtml(release))}</content>`,
      '  </entry>',
    ].join('\n');
  });
  return [
    '<?xml version="1.0" encoding="utf-8"?>',
    '<feed xmlns="http://www.w3.org/2005/Atom">',
    `  <id>${escapeXml(`${publicBaseUrl}${RELEASE_FEED_PATH}`)}</id>`,
    `  <title>${escapeXml(`${siteConfig.productName} CLI releases`)}</title>`,
    `  <subtitle>${escapeXml(`New versions of the ${siteConfig.productName} command-line tool, with their change logs and downloads.`)}</subtitle>`,
    `  <link rel="self" type="application/atom+xml" href="${escapeXml(`${publicBaseUrl}${RELEASE_FEED_PATH}`)}"/>`,
    `  <link rel="alternate" type="text/html" href="${escapeXml(pageUrl)}"/>`,
    `  <updated>${updated}</updated>`,
    `  <author><name>${escapeXml(siteConfig.company.name)}</name></author>`,
    ...entries,
    '</feed>',
    '',
  ].join('\n');
}
