import type { RouterContextProvider } from 'react-router';
import { siteContext } from '../context.ts';

/** The Docker tag that always exists, for the (never expected) case of an empty catalog. */
export const FALLBACK_VERSION_TAG = 'latest';

/** The newest stable CLI version from the release catalog, for pages whose examples name it. */
export async function loadLatestVersion(context: Readonly<RouterContextProvider>): Promise<string> {
  const release = await context.get(siteContext).services.releases.findLatestRelease();
  return release?.version ?? FALLBACK_VERSION_TAG;
}
