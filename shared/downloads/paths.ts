import type { DownloadSelection } from './catalog.ts';

/** The Atom feed of releases, linked from the download page's head. */
export const RELEASE_FEED_PATH = '/download/feed.atom';

/** A stable link that always redirects to the newest release's file, e.g. `/download/latest/linux/x64/zip`. */
export function latestDownloadPath(selection: DownloadSelection): string {
  return `/download/latest/${selection.operatingSystem.toLowerCase()}/${selection.architecture}/${selection.format}`;
}
