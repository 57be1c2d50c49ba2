import type { Route } from './+types/enterprise-grade-robustness.ts';
import { FeaturePage } from '#app/components/content/FeaturePage.tsx';
import { robustnessContent } from '#app/content/features/enterprise-grade-robustness.tsx';
import { pages } from '#app/pages.ts';
import { loadLatestVersion } from '#app/releases/latest-version.ts';
import { metaFor } from '#app/root-data.ts';

export const meta = metaFor(pages.featureRobustness);

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
