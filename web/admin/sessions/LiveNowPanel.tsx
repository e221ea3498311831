import { useQuery } from '@tanstack/react-query';
import { Activity } from 'lucide-react';
import { memo, useState } from 'react';
import type { LiveGame } from '../../../protocol/index';
import { HttpError, serverMessage } from '../../common/api';
import { Badge, Card } from '../../common/ui/Card';
import { cn } from '../../common/ui/cn';
import { CheckboxField } from '../ui/Toggles';
import { sessionCardId } from './SessionCard';

/** At least every 2 s (DESIGN §18); the endpoint reads the rooms' memory, so polling is cheap. */
export const LIVE_NOW_POLL_MS = 2_000;

const healthTone = { ok: 'success', warn: 'warning', down: 'danger' } as const;
const healthText = { ok: 'OK', warn: 'Check', down: 'Down' } as const;
const itemText = { question: 'Question', slide: 'Slide', media: 'Media', idle: 'Idle' } as const;

/**
 * Why a game needs a look, from the figures on its row: the server decides the health by these
 * rules (docs/REALTIME.md, live-games.ts), and the operator should not have to work them out.
 */
function healthReason(game: LiveGame): string {
  if (game.health === 'down') return 'not running';
  return game.displays === 0 ? 'no display' : 'phones reconnecting';
}

function itemLabel(game: LiveGame): string {
  if (game.item === 'question' && game.questionNumber !== null) return `Question ${game.questionNumber} of ${game.questions}`;
  return itemText[game.item];
}

/**
 * Takes the operator to a game's card in the sessions list below (its Stop, Display and Live
 * Controls): with hundreds of games, finding the one that needs a hand by scrolling is slow.
 * Focus moves with it, so a keyboard or screen reader lands there too.
 */
function showSessionCard(sessionId: string): void {
  const card = document.getElementById(sessionCardId(sessionId));
  if (!card) return;
  card.scrollIntoView({ block: 'start' });
  card.focus({ preventScroll: true });
}

/** Why the last poll failed: the server's words when it gave any, else its status, else no answer at all. */
function failureText(error: unknown): string {
  if (error instanceof HttpError) return serverMessage(error) ?? `the server answered ${error.status}`;
  return 'the server did not answer';
}

/**
 * One game's row. Memoised: a poll keeps the objects of unchanged games (react-query's structural
 * sharing), so with a thousand games only the rows that changed render again. Its health comes
 * right after its title: on a phone the table scrolls sideways, and whether a game needs a hand
 * is what the operator looks for, so it stays in view (why, under the badge, keeps the column narrow).
 */
const LiveRow = memo(function LiveRow({ game }: { game: LiveGame }) {
  return (
    <tr data-testid="live-now-row" className="border-t border-current/10">
      <td className="py-1 pr-3 font-medium">
        <button type="button" className="text-left underline decoration-current/40 underline-offset-2 hover:decoration-current focus-visible:decoration-current" onClick={() => showSessionCard(game.sessionId)}>
          {game.title}
        </button>
      </td>
      <td className="py-1 pr-3">
        <Badge tone={healthTone[game.health]} data-testid="live-now-health">
          {healthText[game.health]}
        </Badge>
        {game.health !== 'ok' && (
          <span className="block whitespace-nowrap pt-0.5 text-xs opacity-70" data-testid="live-now-why">
            {healthReason(game)}
          </span>
        )}
      </td>
      <td className="py-1 pr-3">{game.auditorium ?? '—'}</td>
      <td className="whitespace-nowrap py-1 pr-3">{itemLabel(game)}</td>
      <td className="py-1 pr-3 text-right tabular-nums">{game.phones}</td>
      <td className="py-1 pr-3 text-right tabular-nums">{game.displays}</td>
      <td className="py-1 pr-3 text-right tabular-nums">{game.item === 'question' ? `${game.answered}/${game.phones}` : '—'}</td>
      <td className="py-1 text-right tabular-nums">{game.reconnectsLastMinute}</td>
    </tr>
  );
});

/**
 * How many games need a look, beside the heading: with a thousand rows in title order, the
 * operator sees at once whether any is in trouble without scrolling for its badge.
 */
function HealthCounts({ games }: { games: LiveGame[] }) {
  let warn = 0;
  let down = 0;
  for (const game of games) {
    if (game.health === 'warn') warn++;
    else if (game.health === 'down') down++;
  }
  return (
    <>
      {down > 0 && (
        <Badge tone="danger" data-testid="live-now-down-count">
          {down} {healthText.down}
        </Badge>
      )}
      {warn > 0 && (
        <Badge tone="warning" data-testid="live-now-warn-count">
          {warn} {healthText.warn}
        </Badge>
      )}
    </>
  );
}

/**
 * Every live game at a glance, above the sessions list: a chain runs a pre-show in every
 * auditorium at once, and the operator must see which one needs a hand. Shown only while
 * something is live, or while the overview cannot be had (a failed poll must not look like
 * "nothing is live", nor leave old rows looking current); the list is sorted by title (the
 * server's order: rows keep their places as their health changes).
 *
 * A chain's evening is hundreds of rows: the table scrolls inside a box of its own (its header
 * stays in view) so the sessions list below is still a short scroll away, and one switch narrows
 * it to the games that need a look (docs/WEB.md, "Live now").
 */
export function LiveNowPanel() {
  // Fetched on mount as well (the admin's queries are otherwise never stale): back on the
  // Sessions tab the figures are current at once, not after the first poll.
  const live = useQuery<LiveGame[]>({ queryKey: ['/api/admin/live'], refetchInterval: LIVE_NOW_POLL_MS, refetchIntervalInBackground: false, staleTime: 0 });
  const games = live.data ?? [];
  const failed = live.isError;
  const [troubleOnly, setTroubleOnly] = useState(false);
  if (games.length === 0 && !failed) return null;
  const shown = troubleOnly ? games.filter((game) => game.health !== 'ok') : games;
  return (
    <Card className="mb-6 p-4" aria-labelledby="live-now-heading" role="region">
      <div className="mb-3 flex flex-wrap items-center justify-between gap-x-4 gap-y-2">
        <h3 id="live-now-heading" className="flex flex-wrap items-center gap-2 text-lg font-semibold">
          <Activity className="size-5" aria-hidden />
          <span className="whitespace-nowrap">Live now</span>
          {live.data && <span className="text-sm font-normal opacity-70">({games.length})</span>}
          <HealthCounts games={games} />
        </h3>
        {games.length > 0 && (
          <CheckboxField id="live-now-trouble-only" checked={troubleOnly} onCheckedChange={setTroubleOnly} label="Only games that need a look" />
        )}
      </div>
      {failed && (
        <p role="status" data-testid="live-now-stale" className="mb-3 text-sm font-medium text-red-300">
          {live.dataUpdatedAt > 0
            ? `Not updated since ${new Date(live.dataUpdatedAt).toLocaleTimeString()}: ${failureText(live.error)}`
            : `The live games could not be loaded: ${failureText(live.error)}`}
        </p>
      )}
      {troubleOnly && games.length > 0 && shown.length === 0 && (
        <p data-testid="live-now-all-ok" className="text-sm opacity-70">
          Every live game is OK.
        </p>
      )}
      {shown.length > 0 && (
        // Scrolls inside its box, and sideways on a phone: focusable so a keyboard can scroll it too.
        // The header's colour is not an opacity: it is sticky, and the rows must not show through it.
        <div
          className={cn('max-h-[min(28rem,60vh)] overflow-auto', failed && 'opacity-60')}
          data-scroll-x
          data-testid="live-now-scroll"
          tabIndex={0}
          role="group"
          aria-label="Live games"
        >
          <table className="w-full min-w-[36rem] text-left text-sm">
            <thead className="sticky top-0 z-10 bg-surface">
              <tr className="text-muted">
                <th scope="col" className="min-w-[10rem] py-1 pr-3 font-medium">Session</th>
                <th scope="col" className="py-1 pr-3 font-medium">Health</th>
                <th scope="col" className="py-1 pr-3 font-medium">Auditorium</th>
                <th scope="col" className="py-1 pr-3 font-medium">On screen</th>
                <th scope="col" className="py-1 pr-3 text-right font-medium">Phones</th>
                <th scope="col" className="py-1 pr-3 text-right font-medium">Displays</th>
                <th scope="col" className="py-1 pr-3 text-right font-medium">Answered</th>
                <th scope="col" className="py-1 text-right font-medium">
                  {/* Broken where it reads well when the column is narrow, not inside "(1 min)". */}
                  Reconnects <span className="whitespace-nowrap">(1 min)</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {shown.map((game) => (
                <LiveRow key={game.sessionId} game={game} />
              ))}
            </tbody>
          </table>
        </div>
      )}
    </Card>
  );
}
