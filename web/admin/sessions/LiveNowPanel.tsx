import { useQuery } from '@tanstack/react-query';
import { Activity } from 'lucide-react';
import type { LiveGame } from '../../../protocol/index';
import { Badge, Card } from '../../common/ui/Card';

/** At least every 2 s (DESIGN §18); the endpoint reads the rooms' memory, so polling is cheap. */
export const LIVE_NOW_POLL_MS = 2_000;

const healthTone = { ok: 'success', warn: 'warning', down: 'danger' } as const;
const healthText = { ok: 'OK', warn: 'Check', down: 'Down' } as const;
const itemText = { question: 'Question', slide: 'Slide', media: 'Media', idle: 'Idle' } as const;

function itemLabel(game: LiveGame): string {
  if (game.item === 'question' && game.questionNumber !== null) return `Question ${game.questionNumber} of ${game.questions}`;
  return itemText[game.item];
}

/**
 * Every live game at a glance, above the sessions list: a chain runs a pre-show in every
 * auditorium at once, and the operator must see which one needs a hand. Shown only while
 * something is live; the list is sorted by title (the server's order).
 */
export function LiveNowPanel() {
  const live = useQuery<LiveGame[]>({ queryKey: ['/api/admin/live'], refetchInterval: LIVE_NOW_POLL_MS, refetchIntervalInBackground: false });
  const games = live.data ?? [];
  if (games.length === 0) return null;
  return (
    <Card className="mb-6 p-4" aria-labelledby="live-now-heading" role="region">
      <h3 id="live-now-heading" className="mb-3 flex items-center gap-2 text-lg font-semibold">
        <Activity className="size-5" aria-hidden />
        Live now <span className="text-sm font-normal opacity-70">({games.length})</span>
      </h3>
      {/* Scrolls sideways on a phone: focusable so a keyboard can scroll it too. */}
      <div className="overflow-x-auto" data-scroll-x tabIndex={0} role="group" aria-label="Live games">
        <table className="w-full min-w-[36rem] text-left text-sm">
          <thead className="opacity-70">
            <tr>
              <th scope="col" className="py-1 pr-3 font-medium">Session</th>
              <th scope="col" className="py-1 pr-3 font-medium">Auditorium</th>
              <th scope="col" className="py-1 pr-3 font-medium">On screen</th>
              <th scope="col" className="py-1 pr-3 text-right font-medium">Phones</th>
              <th scope="col" className="py-1 pr-3 text-right font-medium">Displays</th>
              <th scope="col" className="py-1 pr-3 text-right font-medium">Answered</th>
              <th scope="col" className="py-1 pr-3 text-right font-medium">Reconnects (1 min)</th>
              <th scope="col" className="py-1 font-medium">Health</th>
            </tr>
          </thead>
          <tbody>
            {games.map((game) => (
              <tr key={game.sessionId} data-testid="live-now-row" className="border-t border-current/10">
                <td className="py-1 pr-3 font-medium">{game.title}</td>
                <td className="py-1 pr-3">{game.auditorium ?? '—'}</td>
                <td className="py-1 pr-3">{itemLabel(game)}</td>
                <td className="py-1 pr-3 text-right tabular-nums">{game.phones}</td>
                <td className="py-1 pr-3 text-right tabular-nums">{game.displays}</td>
                <td className="py-1 pr-3 text-right tabular-nums">{game.item === 'question' ? `${game.answered}/${game.phones}` : '—'}</td>
                <td className="py-1 pr-3 text-right tabular-nums">{game.reconnectsLastMinute}</td>
                <td className="py-1">
                  <Badge tone={healthTone[game.health]} data-testid="live-now-health">
                    {healthText[game.health]}
                  </Badge>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </Card>
  );
}
