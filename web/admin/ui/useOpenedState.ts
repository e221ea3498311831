import { useEffect, useState, type Dispatch, type SetStateAction } from 'react';

/**
 * A dialog's state that starts again from `initial()` each time the dialog opens, and again when
 * `of` (the id of what it edits) changes while open: a dialog reopened never shows the last
 * visit's half-typed values or finished import.
 */
export function useOpenedState<T>(open: boolean, initial: () => T, of?: string): [T, Dispatch<SetStateAction<T>>] {
  const [value, setValue] = useState(initial);
  useEffect(() => {
    if (open) setValue(initial());
    // Only an opening or another subject starts over; `initial` is a new function every render.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [open, of]);
  return [value, setValue];
}
