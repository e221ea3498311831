import type { ReactNode } from 'react';
import type { LeaderboardEntry, SlideView } from '../../protocol/index';
import { Lobby } from './Lobby';

/** Texts of the five slides (SPEC §2 "Slide contents"). */
export const DEFAULT_JOIN_SLIDE_TEXT = 'Scan to Join!';
export const GAME_RULES = [
  'Answer each question as quickly and accurately as you can',
  'Faster correct answers earn more points',
  'Top players appear on the leaderboard',
];
/** SPEC §9: the leaderboard slide lists the top 10. */
export const LEADERBOARD_SLIDE_SIZE = 10;

interface Props {
  slide: SlideView;
  leaderboard: LeaderboardEntry[];
  joinUrl: string | null;
  lobby: { joined: number; recentNames: string[] } | null;
}

export function DisplaySlide({ slide, leaderboard, joinUrl, lobby }: Props) {
  switch (slide.slideType) {
    case 'intro':
      return <TitleSlide title="Welcome!" subtitle="Get ready for an amazing trivia experience" />;
    case 'break':
      return <TitleSlide title="Break Time!" subtitle="Grab a snack and get ready for the next round" />;
    case 'rules':
      return <RulesSlide />;
    case 'leaderboard':
      return <StandingsSlide title="Current Standings" leaderboard={leaderboard} />;
    case 'join':
      // A join slide is the lobby under the slide's own text (DESIGN §17).
      return (
        <Lobby heading={slide.slideData.text?.trim() || DEFAULT_JOIN_SLIDE_TEXT} url={joinUrl} joined={lobby?.joined ?? 0} recentNames={lobby?.recentNames ?? []} />
      );
  }
}

function SlideFrame({ children, label }: { children: ReactNode; label: string }) {
  return (
    <section className="flex h-full w-full flex-col items-center justify-center gap-8 text-center" aria-label={label} data-testid="display-slide">
      {children}
    </section>
  );
}

export function TitleSlide({ title, subtitle }: { title: string; subtitle: string }) {
  return (
    <SlideFrame label={title}>
      <h2 className="mq-heading text-8xl font-black" style={{ color: 'var(--mq-primary)' }}>
        {title}
      </h2>
      <p className="text-4xl opacity-90">{subtitle}</p>
    </SlideFrame>
  );
}

function RulesSlide() {
  return (
    <SlideFrame label="Game Rules">
      <h2 className="mq-heading text-7xl font-black" style={{ color: 'var(--mq-primary)' }}>
        Game Rules
      </h2>
      <ol className="flex flex-col gap-5 text-left">
        {GAME_RULES.map((rule, index) => (
          <li key={rule} className="mq-panel flex items-center gap-6 rounded-2xl px-8 py-5 text-4xl">
            <span
              className="mq-heading flex size-14 shrink-0 items-center justify-center rounded-full text-3xl font-bold"
              style={{ backgroundColor: 'var(--mq-primary)', color: 'var(--mq-on-primary)' }}
              aria-hidden
            >
              {index + 1}
            </span>
            {rule}
          </li>
        ))}
      </ol>
    </SlideFrame>
  );
}

/** Rank, name and total points, highest first (the server orders and breaks ties). */
export function StandingsSlide({ title, leaderboard }: { title: string; leaderboard: LeaderboardEntry[] }) {
  const rows = leaderboard.slice(0, LEADERBOARD_SLIDE_SIZE);
  return (
    <SlideFrame label={title}>
      <h2 className="mq-heading text-6xl font-black" style={{ color: 'var(--mq-primary)' }}>
        {title}
      </h2>
      {rows.length === 0 ? (
        <p className="text-3xl opacity-80">No scores yet</p>
      ) : (
        <ol className="grid w-full max-w-[64rem] gap-2" data-testid="standings">
          {rows.map((entry, index) => (
            <li
              key={entry.player.id}
              className="mq-panel grid grid-cols-[4rem_1fr_auto] items-center gap-6 rounded-xl px-6 py-1.5 text-left text-3xl"
              style={index === 0 ? { border: '0.15rem solid var(--mq-primary)' } : undefined}
            >
              <span className="mq-mono font-bold" style={{ color: 'var(--mq-secondary)' }}>
                {index + 1}
              </span>
              <bdi className="truncate font-semibold">{entry.player.name}</bdi>
              <span className="mq-mono font-bold">{entry.score.pointsTotal}</span>
            </li>
          ))}
        </ol>
      )}
    </SlideFrame>
  );
}
