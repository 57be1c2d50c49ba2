import { LegalArticle } from '#app/components/content/LegalArticle.tsx';
import { eula, eulaPdfPath } from '#app/content/legal/eula.ts';
import { pages } from '#app/pages.ts';
import { metaFor } from '#app/root-data.ts';

export const meta = metaFor(pages.eula);

export default function EulaPage() {
  return (
    <LegalArticle
      document={eula}
      actions={
        <p>
          <a href={eulaPdfPath} download type="application/pdf" className="button button-secondary">
            Download as PDF
          </a>
        </p>
      }
    />
  );
}
