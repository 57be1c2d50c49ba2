import { FeaturePage } from '#app/components/content/FeaturePage.tsx';
import { smartMetadataContent } from '#app/content/features/smart-metadata-features.tsx';
import { pages } from '#app/pages.ts';
import { metaFor } from '#app/root-data.ts';

export const meta = metaFor(pages.featureSmartMetadata);

export default function FeatureSmartMetadataPage() {
  return <FeaturePage page={pages.featureSmartMetadata} content={smartMetadataContent} />;
}
