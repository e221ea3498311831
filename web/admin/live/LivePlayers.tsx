import type { LeaderboardEntry } from '../../../protocol/index';
import { PlayerModerationButtons } from '../players/PlayerModeration';
import { usePlayers } from '../queries';

/**
 * The players on the live leaderboard, each with Kick, Hide and Rename (DESIGN §15): what the
 * big screen shows is what the operator can act on. The Players tab reaches everyone else.
 */
export function LivePlayers({ sessionId, leaderboard }: { sessionId: string; leaderboard: LeaderboardEntry[] }) {
  const players = usePlayers();
  if (leaderboard.length === 0) return null;
  const byId = new Map((players.data ?? []).map((p) => [p.id, p]));
  return (
    <div className="grid gap-1" data-testid="live-players">
      <p className="text-xs font-semibold uppercase tracking-wide text-muted">On the leaderboard</p>
      <ul className="grid gap-1">
        {leaderboard.map((entry) => {
          const known = byId.get(entry.player.id);
          return (
            <li key={entry.player.id} className="flex items-center justify-between gap-2 rounded-md bg-black/20 px-2 py-1 text-sm" data-testid="live-player">
              <span className="min-w-0 truncate">
                <bdi className="font-semibold">{entry.player.name}</bdi>
                {known?.hidden && (
                  <span className="text-muted">
                    {' '}
                    (<bdi>{known.name}</bdi>)
                  </span>
                )}
              </span>
              <span className="mq-mono text-muted">{entry.score.pointsTotal}</span>
              <PlayerModerationButtons player={{ id: entry.player.id, name: known?.name ?? entry.player.name, sessionId, hidden: known?.hidden ?? false }} />
            </li>
          );
        })}
      </ul>
    </div>
  );
}
