import { LegalArticle } from '../../components/content/LegalArticle.tsx';
import { privacyPolicy } from '../../content/legal/privacy.ts';
import { pages } from '../../pages.ts';
import { metaFor } from '../../root-data.ts';

export const meta = metaFor(pages.privacy);

export default function PrivacyPage() {
  return <LegalArticle document={privacyPolicy} />;
}
