import { CommandReference } from '#app/components/content/CommandReference.tsx';
import { FeaturePage } from '#app/components/content/FeaturePage.tsx';
import { commandGroups, commandOptions, commandReferenceIntro } from '#app/content/commands.ts';
import { toolboxContent } from '#app/content/features/toolbox-commands.tsx';
import { pages } from '#app/pages.ts';
import { metaFor } from '#app/root-data.ts';

export const meta = metaFor(pages.featureToolbox);

export default function FeatureToolboxPage() {
  return (
    <FeaturePage page={pages.featureToolbox} content={toolboxContent}>
      <section
        id="command-reference"
        aria-labelledby="command-reference-heading"
        className="container section"
      >
        <h2 id="command-reference-heading">{commandReferenceIntro.heading}</h2>
        <p className="lead">{commandReferenceIntro.text}</p>
        <CommandReference groups={commandGroups} options={commandOptions} />
      </section>
    </FeaturePage>
  );
}
