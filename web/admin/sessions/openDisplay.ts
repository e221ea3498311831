import { errorToast } from '../../common/toast';
import { keys } from '../queries';
import { queryClient } from '../queryClient';

/**
 * The Display button: opens the session's screen with its display key (DESIGN §15). The tab is
 * opened at the click (a popup blocker allows only that), then sent to the address once known.
 */
export async function openDisplay(sessionId: string): Promise<void> {
  const screen = window.open('about:blank', '_blank');
  try {
    const link = await queryClient.fetchQuery<{ url: string; key: string }>({ queryKey: keys.sessionScreenLink(sessionId) });
    if (!screen) {
      window.open(link.url, '_blank', 'noopener');
      return;
    }
    // The screen must not reach back into the dashboard.
    screen.opener = null;
    screen.location.href = link.url;
  } catch {
    screen?.close();
    errorToast('Could not open the display. Please try again.');
  }
}
