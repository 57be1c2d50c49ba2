import { siteConfig } from '#shared/site-config.ts';
import { EditionBadge, type Edition } from './EditionBadge.tsx';
import styles from './CommandReference.module.css';

const cli = siteConfig.cliName;

export interface CommandInfo {
  name: string;
  summary: string;
}

export interface CommandGroup {
  id: string;
  title: string;
  intro: string;
  commands: readonly CommandInfo[];
}

export interface OptionInfo {
  name: string;
  summary: string;
  usedWith: readonly string[];
}

export interface ToolboxCommand {
  name: string;
  /** The full command after the CLI name. */
  command: string;
  edition: Edition;
  summary: string;
}

interface CommandReferenceProps {
  groups: readonly CommandGroup[];
  options: readonly OptionInfo[];
}

/** The seventeen named commands in groups, with the options they share. */
export function CommandReference({ groups, options }: CommandReferenceProps) {
  return (
    <div className={styles.reference}>
      <div className={styles.groups}>
        {groups.map((group) => (
          <section key={group.id} id={group.id} aria-labelledby={`${group.id}-heading`}>
            <h3 id={`${group.id}-heading`}>{group.title}</h3>
            <p className={styles.intro}>{group.intro}</p>
            <dl className={styles.commands}>
              {group.commands.map((command) => (
                <div key={command.name} className={styles.command}>
                  <dt>
                    <code>{`${cli} ${command.name}`}</code>
                  </dt>
                  <dd>{command.summary}</dd>
                </div>
              ))}
            </dl>
          </section>
        ))}
      </div>
      <section id="options" aria-labelledby="options-heading">
        <h3 id="options-heading">Options</h3>
        <div className={styles.tableWrap} tabIndex={0} role="region" aria-label="Table of options">
          <table className={styles.table}>
            <thead>
              <tr>
                <th scope="col">Option</th>
                <th scope="col">What it does</th>
                <th scope="col">Used with</th>
              </tr>
            </thead>
            <tbody>
              {options.map((option) => (
                <tr key={option.name}>
                  <th scope="row">
                    <code>--{option.name}</code>
                  </th>
                  <td>{option.summary}</td>
                  <td>
                    {option.usedWith.map((name, index) => (
                      <span key={name}>
                        {index > 0 ? ', ' : ''}
                        <code>{name}</code>
                      </span>
                    ))}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>
    </div>
  );
}

/** Every toolbox command with what it does and the editions that include it. */
export function ToolboxTable({ commands }: { commands: readonly ToolboxCommand[] }) {
  return (
    <div className={styles.tableWrap} tabIndex={0} role="region" aria-label="Toolbox commands">
      <table className={styles.table}>
        <thead>
          <tr>
            <th scope="col">Command</th>
            <th scope="col">What it does</th>
            <th scope="col">Edition</th>
          </tr>
        </thead>
        <tbody>
          {commands.map((command) => (
            <tr key={command.command} data-edition={command.edition}>
              <th scope="row">
                <code>{`${cli} ${command.command}`}</code>
              </th>
              <td>{command.summary}</td>
              <td>
                <EditionBadge edition={command.edition} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
