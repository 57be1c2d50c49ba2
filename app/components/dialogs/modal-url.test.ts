import { describe, expect, it } from 'vitest';
import { isModalName, onlyDialogChanged, scrollKeyOf, searchWithModal } from './modal-url.ts';

describe('modal URL state', () => {
  it('adds and removes the modal parameter, keeping the others', () => {
    expect(searchWithModal('', 'trial')).toBe('?modal=trial');
    expect(searchWithModal('?os=linux', 'contact')).toBe('?os=linux&modal=contact');
    expect(searchWithModal('?os=linux&modal=contact', null)).toBe('?os=linux');
    expect(searchWithModal('?modal=contact', null)).toBe('');
  });

  it('knows the three dialogs only', () => {
    expect(isModalName('portal-access')).toBe(true);
    expect(isModalName('login')).toBe(false);
    expect(isModalName(null)).toBe(false);
  });

  it('gives dialog entries the scroll key of the page underneath', () => {
    expect(scrollKeyOf({ key: 'abc', state: null })).toBe('abc');
    expect(scrollKeyOf({ key: 'def', state: { openedModal: 'trial', scrollKey: 'abc' } })).toBe(
      'abc',
    );
    expect(scrollKeyOf({ key: 'def', state: { scrollKey: 7 } })).toBe('def');
  });

  it('tells a step that only opens, closes or switches a dialog from every other', () => {
    const step = (from: string, to: string) =>
      onlyDialogChanged(
        new URL(from, 'https://orgsmith.test'),
        new URL(to, 'https://orgsmith.test'),
      );
    expect(step('/', '/?modal=trial')).toBe(true);
    expect(step('/download?os=linux&modal=contact', '/download?os=linux')).toBe(true);
    expect(step('/?modal=trial', '/?modal=contact')).toBe(true);
    expect(step('/#faq', '/?modal=trial#faq')).toBe(true);
    // Another page, another parameter, or no dialog change at all: not a dialog step.
    expect(step('/', '/download?modal=trial')).toBe(false);
    expect(step('/pricing?seats=3', '/pricing?seats=4&modal=quote')).toBe(false);
    expect(step('/?modal=trial', '/?modal=trial')).toBe(false);
    expect(step('/', '/')).toBe(false);
  });
});
