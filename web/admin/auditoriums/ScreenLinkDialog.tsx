import { keys } from '../queries';
import type { Auditorium } from '../types';
import { ScreenLinkDialog as ScreenLink } from '../ui/ScreenLinkDialog';

/** The QR dialog of an auditorium: the one URL its projector needs, whatever session runs (DESIGN §13, §15). */
export function ScreenLinkDialog({ open, auditorium, onClose }: { open: boolean; auditorium: Auditorium; onClose: () => void }) {
  return (
    <ScreenLink
      open={open}
      title="Auditorium Screen"
      description={`Open this address once on the screen of ${auditorium.name}: it shows every pre-show by itself.`}
      queryKey={keys.auditoriumScreenLink(auditorium.id)}
      onClose={onClose}
    />
  );
}
