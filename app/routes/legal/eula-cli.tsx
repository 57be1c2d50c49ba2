import { LegalArticle } from '../../components/content/LegalArticle.tsx';
import { eula, eulaPdfPath } from '../../content/legal/eula.ts';
import { pages } from '../../pages.ts';
import { metaFor } from '../../root-data.ts';

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
