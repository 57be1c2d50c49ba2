import { createContext, useContext } from 'react';

/** The open dialog's close function, for buttons inside its body; null outside a dialog. */
export const DialogCloseContext = createContext<(() => void) | null>(null);

export function useDialogClose(): (() => void) | null {
  return useContext(DialogCloseContext);
}
