import { useId } from 'react';
import { priceConfig, sliderRange, type PriceInfo } from '#shared/pricing/index.ts';
import { orgsLabel, stacksLabel } from './plan-labels.ts';
import styles from './SizeSlider.module.css';

interface SizeSliderProps {
  info: PriceInfo;
  onChange: (size: number) => void;
}

function valueText(info: PriceInfo): string {
  if (info.edition === 'Pro') return `${orgsLabel(info)}, ${stacksLabel(info)}, Pro`;
  return `${info.edition}: ${orgsLabel(info).toLowerCase()}`;
}

const clamp = (size: number) => Math.min(sliderRange.max, Math.max(sliderRange.min, size));

/** The size slider 3..25 with minus and plus buttons, which do nothing for fixed plans (docs/product-rules.md#validation). */
export function SizeSlider({ info, onChange }: SizeSliderProps) {
  const id = useId();
  const hintId = `${id}-hint`;
  const step = (delta: number) => {
    if (!info.isFixed) onChange(clamp(info.size + delta));
  };
  // aria-disabled rather than disabled: the button keeps focus when the plan becomes fixed.
  const stepButton = (delta: number, label: string, symbol: string) => (
    <button
      type="button"
      className={styles.step}
      aria-label={label}
      aria-controls={id}
      aria-disabled={info.isFixed}
      onClick={() => step(delta)}
    >
      <span aria-hidden="true">{symbol}</span>
    </button>
  );

  return (
    <div className={styles.slider}>
      <div className={styles.header}>
        <label htmlFor={id} className={styles.label}>
          Number of Salesforce orgs
        </label>
        <span className={styles.value} aria-hidden="true">
          {info.edition === 'Enterprise' ? 'Unlimited' : orgsLabel(info)}
        </span>
      </div>
      <div className={styles.row}>
        {stepButton(-sliderRange.step, 'One org fewer', '−')}
        <input
          id={id}
          type="range"
          name="size"
          className={styles.range}
          min={sliderRange.min}
          max={sliderRange.max}
          step={sliderRange.step}
          value={info.size}
          aria-valuetext={valueText(info)}
          aria-describedby={hintId}
          onChange={(event) => onChange(Number(event.currentTarget.value))}
        />
        {stepButton(sliderRange.step, 'One org more', '+')}
      </div>
      <p id={hintId} className={styles.hint}>
        Starter {priceConfig.starterStartSize} · Pro {priceConfig.proStartSize} to{' '}
        {priceConfig.enterpriseStartSize - 1} · Enterprise {priceConfig.enterpriseStartSize} and
        more. The buttons adjust Pro; Starter and Enterprise have a fixed size.
      </p>
    </div>
  );
}
