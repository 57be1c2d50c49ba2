import type { Route } from './+types/enterprise-grade-robustness.ts';
import { FeaturePage } from '../../components/content/FeaturePage.tsx';
import { robustnessContent } from '../../content/features/enterprise-grade-robustness.tsx';
import { pages } from '../../pages.ts';
import { loadLatestVersion } from '../../releases/latest-version.ts';
import { metaFor } from '../../root-data.ts';

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
