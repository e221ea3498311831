import { useMemo, type ReactNode } from 'react';
import { liveTheme, themeVariables } from '../common/realtime/themeStyle';
import './player.css';

/**
 * The phone's page frame in the session's colours and fonts: one column, never wider than the
 * screen (no sideways scroll at 360 px), with room for a thumb at the bottom.
 */
export function PhoneScreen({ theme, header, children }: { theme: unknown; header?: ReactNode; children: ReactNode }) {
  const resolved = useMemo(() => liveTheme(theme), [theme]);
  return (
    <div className="mq-phone flex min-h-dvh w-full flex-col overflow-x-hidden" style={themeVariables(resolved)}>
      {header}
      <main className="mx-auto flex w-full max-w-md flex-1 flex-col px-4 py-6">{children}</main>
    </div>
  );
}
