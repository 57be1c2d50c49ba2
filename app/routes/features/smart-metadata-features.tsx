import { FeaturePage } from '../../components/content/FeaturePage.tsx';
import { smartMetadataContent } from '../../content/features/smart-metadata-features.tsx';
import { pages } from '../../pages.ts';
import { metaFor } from '../../root-data.ts';

export const meta = metaFor(pages.featureSmartMetadata);

export default function FeatureSmartMetadataPage() {
  return <FeaturePage page={pages.featureSmartMetadata} content={smartMetadataContent} />;
}
