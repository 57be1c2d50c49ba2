/** @jsxImportSource hono/jsx */
import { CSRF_FORM_FIELD } from '#server/platform/csrf/csrf.ts';
import { groupedCardNumber, localTestCards, type CardField } from '../local-cards.ts';

/** The hidden `_csrf` field every posting form of the local pages carries. */
export function CsrfField(props: { token: string }) {
  return <input type="hidden" name={CSRF_FORM_FIELD} value={props.token} />;
}

export interface FieldProps {
  id: string;
  name: string;
  label: string;
  value: string;
  error?: string | undefined;
  hint?: string | undefined;
  type?: 'text' | 'email' | 'number';
  autocomplete?: string;
  inputmode?: 'numeric';
  readonly?: boolean;
  required?: boolean;
  placeholder?: string | undefined;
  min?: number;
  max?: number;
}

/** A labelled input with its hint and error, tied to it by `aria-describedby`. */
export function Field(props: FieldProps) {
  const hintId = props.hint ? `${props.id}-hint` : undefined;
  const errorId = props.error ? `${props.id}-error` : undefined;
  const describedBy = [hintId, errorId].filter(Boolean).join(' ');
  return (
    <div class="field">
      <label for={props.id}>{props.label}</label>
      {props.hint ? (
        <span class="hint" id={hintId}>
          {props.hint}
        </span>
      ) : null}
      <input
        id={props.id}
        name={props.name}
        type={props.type ?? 'text'}
        value={props.value}
        autocomplete={props.autocomplete || undefined}
        inputmode={props.inputmode}
        placeholder={props.placeholder || undefined}
        min={props.min}
        max={props.max}
        readonly={props.readonly ?? false}
        required={props.required ?? false}
        aria-describedby={describedBy || undefined}
        aria-invalid={props.error ? 'true' : undefined}
      />
      {props.error ? (
        <span class="error" id={errorId}>
          {props.error}
        </span>
      ) : null}
    </div>
  );
}

export function SelectField(props: {
  id: string;
  name: string;
  label: string;
  options: Array<{ value: string; label: string }>;
  selected: string;
}) {
  return (
    <div class="field">
      <label for={props.id}>{props.label}</label>
      <select id={props.id} name={props.name}>
        {props.options.map((option) => (
          <option value={option.value} selected={option.value === props.selected}>
            {option.label}
          </option>
        ))}
      </select>
    </div>
  );
}

function TestCardsBox() {
  return (
    <div class="test-cards" id="test-cards">
      <p>
        <strong>Test cards</strong> (any future expiry date, any 3-digit code):
      </p>
      <ul>
        {localTestCards.map((card) => (
          <li>
            <code>{groupedCardNumber(card.number)}</code> —{' '}
            {card.outcome === 'succeeds' ? 'payment succeeds' : 'card is declined'}
          </li>
        ))}
      </ul>
    </div>
  );
}

/** The test-card box and the card number, expiry and security code inputs. */
export function CardFields(props: {
  values: Record<CardField, string>;
  errors: Partial<Record<CardField, string>>;
  numberPlaceholder?: string;
}) {
  const { values, errors } = props;
  return (
    <>
      <TestCardsBox />
      <Field
        id="cardNumber"
        name="cardNumber"
        label="Card number"
        autocomplete="cc-number"
        inputmode="numeric"
        placeholder={props.numberPlaceholder}
        value={values.cardNumber}
        required
        error={errors.cardNumber}
      />
      <div class="row">
        <Field
          id="cardExpiry"
          name="cardExpiry"
          label="Expiry date"
          hint="MM / YY"
          autocomplete="cc-exp"
          inputmode="numeric"
          value={values.cardExpiry}
          required
          error={errors.cardExpiry}
        />
        <Field
          id="cardCvc"
          name="cardCvc"
          label="Security code"
          hint="3 or 4 digits"
          autocomplete="cc-csc"
          inputmode="numeric"
          value={values.cardCvc}
          required
          error={errors.cardCvc}
        />
      </div>
    </>
  );
}
