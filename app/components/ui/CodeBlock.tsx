import { useEffect, useState } from 'react';
import styles from './CodeBlock.module.css';

interface CodeBlockProps {
  code: string;
  /** Accessible name of the copy button's target, e.g. "workflow snippet". */
  label: string;
  language?: string;
}

/** A code or command block with a copy button and an announced "Copied" confirmation. */
export function CodeBlock({ code, label, language }: CodeBlockProps) {
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), 2000);
    return () => clearTimeout(timer);
  }, [copied]);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(code);
      setCopied(true);
    } catch {
      setCopied(false);
    }
  };

  return (
    <div className={styles.block}>
      {/* Scrolls sideways when long, so it is focusable; a named region, as ARIA allows on <pre>. */}
      <pre
        className={styles.pre}
        data-language={language}
        tabIndex={0}
        role="region"
        aria-label={label}
      >
        <code>{code}</code>
      </pre>
      <button
        type="button"
        className={styles.copy}
        onClick={() => void copy()}
        aria-label={`Copy ${label}`}
      >
        {copied ? 'Copied' : 'Copy'}
      </button>
      <span className="visually-hidden" role="status">
        {copied ? `${label} copied to the clipboard` : ''}
      </span>
    </div>
  );
}
