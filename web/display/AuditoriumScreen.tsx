import { useEffect, useMemo, useState } from 'react';
import { useParams } from 'wouter';
import { Clapperboard } from 'lucide-react';
import type { AuditoriumNow, Theme } from '../../protocol/api';
import { HttpError, api } from '../common/api';
import { showingTime } from '../common/format';
import { liveTheme } from '../common/realtime/themeStyle';
import { useDocumentTitle } from '../common/ui/useDocumentTitle';
import { SessionDisplay, ThemedScreen, useScreenSizedRem } from './DisplayPage';
import { displayKeyOf } from './JoinSlide';
import './display.css';

/** How often the screen asks what is on: a pre-show appears at most this long after it starts. */
export const AUDITORIUM_POLL_MS = 3000;
/** The idle screen's theme is read again this often (an operator may change the template). */
const THEME_POLL_MS = 60_000;

type Feed = { state: 'loading' } | { state: 'ready'; now: AuditoriumNow } | { state: 'not_found' };

/**
 * The auditorium screen (DESIGN §13, docs/SHOWTIMES.md): put up once per projector, it shows the
 * session live in the auditorium and switches by itself. A pre-show's final standings stay up
 * until its film begins; in between pre-shows, an idle screen names the next film.
 */
export default function AuditoriumScreen() {
  const { auditoriumId } = useParams<{ auditoriumId: string }>();
  const feed = useAuditoriumNow(auditoriumId);
  const now = feed.state === 'ready' ? feed.now : null;
  const sessionId = useShownSession(now);
  const theme = useIdleTheme(auditoriumId);
  useDocumentTitle(now ? `${now.auditorium.name} · Auditorium screen` : 'Auditorium screen');
  useScreenSizedRem();

  // Keyed by session: a new pre-show gets a fresh display (its own socket and state).
  // The auditorium's key serves every session shown here (DESIGN §15).
  if (sessionId) return <SessionDisplay key={sessionId} sessionId={sessionId} displayKey={displayKeyOf(window.location.search)} />;
  return <IdleScreen feed={feed} theme={theme} />;
}

/** What is on now, asked every few seconds; a failed ask keeps the last answer (the screen never blanks). */
function useAuditoriumNow(auditoriumId: string): Feed {
  const [feed, setFeed] = useState<Feed>({ state: 'loading' });
  useEffect(() => {
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const ask = async () => {
      try {
        const now = await api.get<AuditoriumNow>(`/api/auditoriums/${encodeURIComponent(auditoriumId)}/now`, { signal: controller.signal });
        setFeed({ state: 'ready', now });
      } catch (error) {
        if (controller.signal.aborted) return;
        if (error instanceof HttpError && (error.status === 404 || error.status === 400)) setFeed({ state: 'not_found' });
      }
      if (!controller.signal.aborted) timer = setTimeout(() => void ask(), AUDITORIUM_POLL_MS);
    };
    void ask();
    return () => {
      controller.abort();
      clearTimeout(timer);
    };
  }, [auditoriumId]);
  return feed;
}

const nextKey = (now: AuditoriumNow) => (now.next ? `${now.next.startsAt} ${now.next.title}` : '');

/**
 * The session to show: the live one; after it ends, the same one (its final standings) for as
 * long as the next film is still the one that was next while it ran, i.e. until that film begins
 * by the server's clock. Then the idle screen.
 */
function useShownSession(now: AuditoriumNow | null): string | null {
  const [held, setHeld] = useState<{ sessionId: string; nextKey: string } | null>(null);
  useEffect(() => {
    if (!now) return;
    if (now.liveSessionId) setHeld({ sessionId: now.liveSessionId, nextKey: nextKey(now) });
    else setHeld((h) => (h && h.nextKey === nextKey(now) ? h : null));
  }, [now]);
  if (!now) return null;
  return now.liveSessionId ?? (held && held.nextKey === nextKey(now) ? held.sessionId : null);
}

function useIdleTheme(auditoriumId: string): Theme {
  const [theme, setTheme] = useState<Theme>({});
  useEffect(() => {
    const controller = new AbortController();
    const load = () =>
      api
        .get<{ theme: Theme }>(`/api/auditoriums/${encodeURIComponent(auditoriumId)}/theme`, { signal: controller.signal })
        .then((r) => setTheme(r.theme))
        .catch(() => undefined); // keep the theme it has
    void load();
    const timer = setInterval(() => void load(), THEME_POLL_MS);
    return () => {
      controller.abort();
      clearInterval(timer);
    };
  }, [auditoriumId]);
  return theme;
}

function IdleScreen({ feed, theme: rawTheme }: { feed: Feed; theme: Theme }) {
  const theme = useMemo(() => liveTheme(rawTheme), [rawTheme]);
  if (feed.state !== 'ready') {
    return (
      <ThemedScreen theme={theme}>
        <p role="status" className="mq-heading flex h-full items-center justify-center text-5xl font-semibold">
          {feed.state === 'loading' ? 'Loading...' : 'Auditorium not found'}
        </p>
      </ThemedScreen>
    );
  }
  const { auditorium, next } = feed.now;
  return (
    <ThemedScreen theme={theme}>
      <main className="flex h-full flex-col items-center justify-center gap-10 px-16 text-center" data-testid="auditorium-idle">
        {theme.logo && <img src={theme.logo} alt="" className="h-20 w-auto max-w-80 object-contain" data-testid="idle-logo" />}
        <p className="mq-heading text-4xl font-semibold tracking-wide opacity-80">{auditorium.name}</p>
        {next ? (
          <section className="mq-panel flex max-w-[80%] flex-col items-center gap-5 rounded-3xl px-20 py-12" aria-label="Next showing">
            <p className="flex items-center gap-3 text-3xl uppercase tracking-widest opacity-80">
              <Clapperboard className="size-9" aria-hidden />
              Next showing
            </p>
            <p className="mq-heading text-7xl font-bold leading-tight break-words" data-testid="next-title">
              {next.title}
            </p>
            <p className="text-5xl" data-testid="next-time">
              {showingTime(next.startsAt)}
            </p>
            <p className="text-2xl opacity-80">Movie trivia on your phone before the film: stay tuned!</p>
          </section>
        ) : (
          <p className="mq-panel rounded-3xl px-16 py-10 text-4xl">No showings scheduled</p>
        )}
      </main>
    </ThemedScreen>
  );
}
