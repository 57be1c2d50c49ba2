import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { FormFooter } from './FormFooter.tsx';
import type { SubmissionState } from './use-submission.ts';

const idle: SubmissionState = {
  isProcessing: false,
  resultIsSuccess: false,
  resultErrorMessage: null,
};

function render(submission: Partial<SubmissionState>, invalid = false) {
  return renderToStaticMarkup(
    <form>
      <FormFooter
        submission={{ ...idle, ...submission }}
        successMessage="It went through."
        invalid={invalid}
      />
    </form>,
  );
}

const button = (html: string) => /<button[^>]*>/.exec(html)?.[0] ?? '';

describe('FormFooter', () => {
  it('shows only an enabled Send button while idle and valid', () => {
    const html = render({});
    expect(html).not.toMatch(/role="(status|alert)"/);
    expect(button(html)).toContain('type="submit"');
    expect(button(html)).not.toContain('disabled');
    expect(html).toContain('>Send</span>');
  });

  it('disables the button while the form is invalid, sending, or done', () => {
    expect(button(render({}, true))).toContain('disabled');
    expect(button(render({ isProcessing: true }))).toContain('disabled');
    expect(button(render({ resultIsSuccess: true }))).toContain('disabled');
    expect(button(render({ resultErrorMessage: 'No.' }))).not.toContain('disabled');
  });

  it('shows the typing indicator and "Sending…" while the request runs', () => {
    const html = render({ isProcessing: true });
    expect(button(html)).toContain('aria-busy="true"');
    expect(html).toContain('data-testid="typing-indicator"');
    expect(html).toContain('Sending…');
  });

  it('puts the success status before the button, as direct children of the form', () => {
    const html = render({ resultIsSuccess: true });
    expect(html).toMatch(
      /^<form><div [^>]*role="status" data-tone="success">It went through\.<\/div><div [^>]*><button/,
    );
    expect(html).not.toContain('role="alert"');
  });

  it('puts the error alert before the button', () => {
    const html = render({ resultErrorMessage: 'Something failed.' });
    expect(html).toMatch(
      /^<form><div [^>]*role="alert" data-tone="danger">Something failed\.<\/div><div [^>]*><button/,
    );
    expect(html).not.toContain('role="status"');
  });
});
