import type { ReactNode } from 'react';
import styles from './SegmentedToggle.module.css';

export interface ToggleOption<V extends string> {
  value: V;
  label: ReactNode;
}

interface SegmentedToggleProps<V extends string> {
  legend: string;
  /** The form field name; also the URL parameter when the form is sent without JavaScript. */
  name: string;
  options: ReadonlyArray<ToggleOption<V>>;
  value: V;
  onChange: (value: V) => void;
}

/** A segmented control built from native radio buttons: arrow keys move the choice. */
export function SegmentedToggle<V extends string>({
  legend,
  name,
  options,
  value,
  onChange,
}: SegmentedToggleProps<V>) {
  return (
    <fieldset className={styles.toggle}>
      <legend className={styles.legend}>{legend}</legend>
      <div className={styles.options}>
        {options.map((option) => (
          <label key={option.value} className={styles.option}>
            <input
              type="radio"
              name={name}
              value={option.value}
              checked={option.value === value}
              onChange={() => onChange(option.value)}
              className={styles.input}
            />
            <span className={styles.label}>{option.label}</span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}
