import { useState } from 'react';
import { Tabs } from '#app/components/ui/Tabs.tsx';
import { imprint, type ImprintVersion } from '#app/content/legal/imprint.ts';
import { pages } from '#app/pages.ts';
import { metaFor } from '#app/root-data.ts';
import styles from './imprint.module.css';

export const meta = metaFor(pages.imprint);

function ImprintPanel({ version }: { version: ImprintVersion }) {
  return (
    <div lang={version.lang} className={styles.panel}>
      <h2 className={styles.heading}>{version.heading}</h2>
      {version.groups.map((group) => (
        <section key={group.heading} className={styles.group}>
          <h3>{group.heading}</h3>
          <p>
            {group.lines.map((line, index) => (
              <span key={index} className={styles.line}>
                {line.label ? <>{line.label}: </> : null}
                {line.href ? <a href={line.href}>{line.value}</a> : line.value}
              </span>
            ))}
          </p>
        </section>
      ))}
    </div>
  );
}

export default function ImprintPage() {
  const [selected, setSelected] = useState<ImprintVersion['key']>('en');
  return (
    <div className={`container ${styles.page}`}>
      <h1>{pages.imprint.title}</h1>
      <Tabs
        label="Language"
        selected={selected}
        onSelect={setSelected}
        items={imprint.map((version) => ({
          key: version.key,
          label: <span lang={version.lang}>{version.label}</span>,
          panel: <ImprintPanel version={version} />,
        }))}
      />
    </div>
  );
}
