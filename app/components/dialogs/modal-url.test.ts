import { describe, expect, it } from 'vitest';
import { isModalName, scrollKeyOf, searchWithModal } from './modal-url.ts';

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
});
