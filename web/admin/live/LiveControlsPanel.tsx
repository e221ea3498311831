import type { Session } from '../types';

export function LiveControlsPanel({ session }: { session: Session }) {
  return <div data-session={session.id}>Live Controls</div>;
}
