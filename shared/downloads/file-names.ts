import { siteConfig } from '../site-config.ts';
import type { DownloadSelection, OperatingSystem } from './catalog.ts';

/** The operating-system part of a file name on the file host (docs/product-rules.md#service-calls). */
export const osFileKeys: Record<OperatingSystem, string> = {
  Windows: 'win',
  macOS: 'osx',
  Linux: 'linux',
};

/**
 * The file name of an artifact on the file host: CLI name, version, OS key, architecture and
 * extension, e.g. `orgsmith-3.2.2-win-x64.msi`.
 */
export function artifactFileName(version: string, selection: DownloadSelection): string {
  const os = osFileKeys[selection.operatingSystem];
  return `${siteConfig.cliName}-${version}-${os}-${selection.architecture}.${selection.format}`;
}

/** The one place a download link is built: file host base URL (no trailing slash) plus file name. */
export function downloadUri(baseUrl: string, fileName: string): string {
  return `${baseUrl.replace(/\/+$/, '')}/${encodeURIComponent(fileName)}`;
}
