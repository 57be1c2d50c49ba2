import type { Route } from './+types/enterprise-grade-robustness.ts';
import { FeaturePage } from '#app/components/content/FeaturePage.tsx';
import { robustnessContent } from '#app/content/features/enterprise-grade-robustness.tsx';
import { pages } from '#app/pages.ts';
import { loadLatestVersion } from '#app/releases/latest-version.ts';
import { metaFor } from '#app/root-data.ts';
import { keepDataWhileDialogsChange } from '#app/components/dialogs/revalidation.ts';

export const meta = metaFor(pages.featureRobustness);

// Opening or closing a dialog keeps the page's data (no round trip, no second lookup).
export const shouldRevalidate = keepDataWhileDialogsChange;

export async function loader({ context }: Route.LoaderArgs) {
  return { latestVersion: await loadLatestVersion(context) };
}

export default function FeatureRobustnessPage({ loaderData }: Route.ComponentProps) {
  return (
    <FeaturePage
      page={pages.featureRobustness}
      content={robustnessContent(loaderData.latestVersion)}
    />
  );
}
