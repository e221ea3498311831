import { Trophy } from 'lucide-react';
import type { LeaderboardEntry } from '../../protocol/index';

/** SPEC §9: the footer shows the top 5. */
export const FOOTER_SIZE = 5;

export function TopPlayersFooter({ leaderboard }: { leaderboard: LeaderboardEntry[] }) {
  const top = leaderboard.slice(0, FOOTER_SIZE);
  return (
    <footer className="mq-panel flex h-16 shrink-0 items-center gap-10 overflow-hidden px-12" data-testid="top-players">
      <h2 className="mq-heading flex shrink-0 items-center gap-3 text-2xl font-bold" style={{ color: 'var(--mq-primary)' }}>
        <Trophy className="size-8" aria-hidden />
        Top Players
      </h2>
      {top.length === 0 ? (
        <p className="text-2xl opacity-70">No scores yet</p>
      ) : (
        <ol className="flex min-w-0 items-center gap-10">
          {top.map((entry, index) => (
            <li key={entry.player.id} className="flex min-w-0 items-baseline gap-3 text-2xl" data-testid="top-player">
              <span className="mq-mono font-bold" style={{ color: 'var(--mq-secondary)' }}>
                {index + 1}.
              </span>
              <bdi className="max-w-56 truncate font-semibold">{entry.player.name}</bdi>
              <span className="mq-mono font-bold">{entry.score.pointsTotal}</span>
            </li>
          ))}
        </ol>
      )}
    </footer>
  );
}
