import { useEffect, useMemo, type ReactNode } from 'react';
import { useParams } from 'wouter';
import { WifiOff } from 'lucide-react';
import type { LiveState } from '../common/realtime/liveState';
import { rotationItems } from '../common/realtime/mediaRotation';
import { useCountdown } from '../common/realtime/useCountdown';
import { usePublicSession, type PublicSession } from '../common/realtime/usePublicSession';
import type { SocketStatus } from '../common/realtime/useSessionSocket';
import { useDocumentTitle } from '../common/ui/useDocumentTitle';
import type { ResolvedTheme } from '../common/theme';
import { DisplayHeader } from './DisplayHeader';
import { DisplayQuestion } from './DisplayQuestion';
import { DisplaySlide, StandingsSlide, TitleSlide } from './DisplaySlides';
import { WinnersSlide } from './WinnersSlide';
import { Interstitial } from './Interstitial';
import { displayKeyOf, useJoinLink } from './JoinSlide';
import { LOBBY_HEADING, Lobby } from './Lobby';
import { TopPlayersFooter } from './TopPlayersFooter';
import { cssUrl, liveTheme, themeVariables } from '../common/realtime/themeStyle';
import { DISPLAY_ROOT_FONT_SIZE } from './displayTheme';
import { useDisplayFeed } from './useDisplayFeed';
import './display.css';

/**
 * The large display (SPEC §2 "Display screen"): read-only, driven by the session's socket.
 * Header and 'Top Players' footer frame a body that shows, in turn, the question, a slide,
 * the interstitial media or 'Get Ready!'.
 */
export default function DisplayPage() {
  const { sessionId } = useParams<{ sessionId: string }>();
  return <SessionDisplay sessionId={sessionId} displayKey={displayKeyOf(window.location.search)} />;
}

/** One session's display: the page above, and the auditorium screen while a session is live there. */
export function SessionDisplay({ sessionId, displayKey }: { sessionId: string; displayKey: string | null }) {
  const info = usePublicSession(sessionId);
  const loaded = info.state === 'ready' ? info.session : null;
  const { live, status, clock, closed } = useDisplayFeed(sessionId, loaded !== null);
  // An edit announced on the socket (title, theme) wins over what was fetched at load.
  const session = loaded && (live.sessionInfo ?? loaded);
  const theme = useMemo(() => liveTheme(session?.theme), [session?.theme]);
  const joinUrl = useJoinLink(sessionId, session !== null, displayKey);
  const inQuestion = live.phase === 'question' && live.question !== null;
  const countdown = useCountdown(inQuestion ? live.endsAt : null, inQuestion ? live.timeRemaining : null, clock.serverNow);
  useDocumentTitle(session ? `${session.title} · Display` : 'Display');
  useScreenSizedRem();

  if (info.state === 'not_found' || closed?.code === 4404 || closed?.code === 4410) {
    return (
      <Notice theme={theme} detail="Check the screen's link in the admin dashboard: the session may have been deleted, or the link mistyped.">
        This game isn't here
      </Notice>
    );
  }
  if (info.state === 'error') return <Notice theme={theme}>Could not load the session. Please reload the page.</Notice>;
  if (!session || !live.ready) return <Notice theme={theme}>Loading session...</Notice>;

  return (
    <ThemedScreen theme={theme}>
      <DisplayHeader theme={theme} title={session.title} countdown={inQuestion ? countdown : null} />
      <main className="flex min-h-0 flex-1 items-center justify-center px-16 py-8">
        <DisplayBody theme={theme} live={live} session={session} joinUrl={joinUrl} />
      </main>
      {/* The lobby has no scores to show yet: the footer waits for the game. */}
      {live.phase !== 'waiting' && <TopPlayersFooter leaderboard={live.leaderboard} />}
      <ConnectionBadge status={status} />
    </ThemedScreen>
  );
}

function DisplayBody({ theme, live, session, joinUrl }: { theme: ResolvedTheme; live: LiveState; session: PublicSession; joinUrl: string | null }) {
  // Winners never cover a question or its reveal: they wait for the transition (DESIGN §17).
  const questionOnScreen = live.phase === 'question' || live.phase === 'reveal';
  if (live.winners && !questionOnScreen) return <WinnersSlide prize={live.winners.prize} names={live.winners.names} />;
  if (live.status === 'finished') {
    // Nobody scored (a pre-show nobody played): a goodbye, not an empty table over an empty footer.
    if (live.leaderboard.length === 0) return <TitleSlide title="Thanks for playing!" subtitle="Enjoy the show" />;
    return <StandingsSlide title="Final Standings" leaderboard={live.leaderboard} />;
  }
  if (live.question) {
    return (
      <DisplayQuestion
        theme={theme}
        question={live.question}
        correctIndex={live.correctIndex}
        answersIn={live.phase === 'question' ? (live.progress?.answered ?? null) : live.distribution ? live.distribution.reduce((a, b) => a + b, 0) : null}
        distribution={live.correctIndex !== null ? live.distribution : null}
        questionNumber={live.questionNumber}
      />
    );
  }
  if (live.slide) return <DisplaySlide slide={live.slide} leaderboard={live.leaderboard} joinUrl={joinUrl} lobby={live.lobby} />;
  // Before Start the screen is the way in: the lobby (DESIGN §17).
  if (live.phase === 'waiting') {
    return <Lobby heading={LOBBY_HEADING} url={joinUrl} joined={live.lobby?.joined ?? 0} recentNames={live.lobby?.recentNames ?? []} />;
  }
  // No question and no slide: the transition media, counted by the state, else by the session.
  const count = live.mediaItemCount ?? session.mediaItemsPerTransition;
  return <Interstitial items={rotationItems(live.media, count)} />;
}

/** The full-screen themed canvas: background colour or image, with the theme's overlay on the image. */
export function ThemedScreen({ theme, children }: { theme: ResolvedTheme; children: ReactNode }) {
  return (
    <div
      className="mq-display relative h-screen w-screen overflow-hidden bg-cover bg-center"
      style={{ ...themeVariables(theme), backgroundImage: theme.mainBackgroundImage ? cssUrl(theme.mainBackgroundImage) : undefined }}
      data-testid="display-screen"
    >
      {theme.mainBackgroundImage && <div className="mq-overlay absolute inset-0" aria-hidden />}
      <div className="relative flex h-full flex-col">{children}</div>
    </div>
  );
}

function Notice({ theme, children, detail }: { theme: ResolvedTheme; children: ReactNode; detail?: string }) {
  return (
    <ThemedScreen theme={theme}>
      <div role="status" className="flex h-full flex-col items-center justify-center gap-6 px-24 text-center">
        <p className="mq-heading text-5xl font-semibold">{children}</p>
        {detail && <p className="max-w-[60rem] text-3xl opacity-80">{detail}</p>}
      </div>
    </ThemedScreen>
  );
}

/** A quiet corner note while the live connection is down; the screen keeps its last state. */
function ConnectionBadge({ status }: { status: SocketStatus }) {
  if (status === 'open') return null;
  return (
    <p role="status" className="mq-panel absolute right-6 bottom-20 flex items-center gap-2 rounded-full px-4 py-2 text-lg" data-testid="connection-badge">
      <WifiOff className="size-5" aria-hidden />
      {status === 'closed' ? 'Disconnected' : 'Reconnecting...'}
    </p>
  );
}

/** Sizes the rem to the screen while the display is open (see DISPLAY_ROOT_FONT_SIZE). */
export function useScreenSizedRem(): void {
  useEffect(() => {
    const root = document.documentElement;
    const previous = root.style.fontSize;
    root.style.fontSize = DISPLAY_ROOT_FONT_SIZE;
    return () => {
      root.style.fontSize = previous;
    };
  }, []);
}
