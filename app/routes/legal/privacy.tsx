import { LegalArticle } from '#app/components/content/LegalArticle.tsx';
import { privacyPolicy } from '#app/content/legal/privacy.ts';
import { pages } from '#app/pages.ts';
import { metaFor } from '#app/root-data.ts';

export const meta = metaFor(pages.privacy);

export default function PrivacyPage() {
  return <LegalArticle document={privacyPolicy} />;
}
