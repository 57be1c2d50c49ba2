import { useEffect, useId, useRef, type ChangeEvent, type ReactNode } from 'react';
import styles from './Forms.module.css';

interface FormFieldProps {
  name: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  /** The field's current validation message, if any. */
  error?: string | undefined;
  /** Errors are styled and shown only once the form is no longer pristine (docs/product-rules.md#validation). */
  showError: boolean;
  type?: 'text' | 'email';
  multiline?: boolean;
  optional?: boolean;
  hideLabel?: boolean;
  placeholder?: string;
  hint?: ReactNode;
  maxLength?: number;
  autoComplete?: string;
}

/** A labelled input with its hint and error text, linked by aria-describedby. */
export function FormField(props: FormFieldProps) {
  const { name, label, value, onChange, error, showError, hint } = props;
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const invalid = showError && Boolean(error);
  const inputRef = useRef<HTMLInputElement>(null);
  const textareaRef = useRef<HTMLTextAreaElement>(null);
  const initial = useRef({ value, onChange });
  useEffect(() => {
    // Text typed into the server-rendered form before it hydrated is only in the DOM: adopt it.
    const typed = (inputRef.current ?? textareaRef.current)?.value;
    if (typed !== undefined && typed !== initial.current.value) initial.current.onChange(typed);
  }, []);
  const describedBy = [hint ? hintId : null, invalid ? errorId : null].filter(Boolean).join(' ');
  const common = {
    id,
    name,
    value,
    placeholder: props.placeholder,
    maxLength: props.maxLength,
    autoComplete: props.autoComplete,
    required: !props.optional,
    'aria-invalid': invalid || undefined,
    'aria-describedby': describedBy || undefined,
    className: `${styles.control} ${invalid ? styles.invalid : ''}`,
    onChange: (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) =>
      onChange(event.target.value),
  };
  return (
    <div className={styles.field}>
      <label htmlFor={id} className={props.hideLabel ? 'visually-hidden' : styles.label}>
        {label}
        {props.optional ? <span className={styles.optional}> (optional)</span> : null}
      </label>
      {props.multiline ? (
        <textarea {...common} ref={textareaRef} rows={5} />
      ) : (
        <input
          {...common}
          ref={inputRef}
          type={props.type ?? 'text'}
          spellCheck={props.type === 'email' ? false : undefined}
        />
      )}
      {hint ? (
        <p id={hintId} className={styles.hint}>
          {hint}
        </p>
      ) : null}
      {invalid ? (
        <p id={errorId} className={styles.error}>
          {error}
        </p>
      ) : null}
    </div>
  );
}
