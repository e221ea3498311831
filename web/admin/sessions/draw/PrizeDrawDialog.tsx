import { useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Monitor, Trophy } from 'lucide-react';
import type { PrizeDraw } from '../../../../protocol/index';
import { api } from '../../../common/api';
import { formatDateTime, plural } from '../../../common/format';
import { Button } from '../../../common/ui/Button';
import { HelpText, Input } from '../../../common/ui/Field';
import type { Session } from '../../types';
import { AppDialog } from '../../ui/Dialog';
import { FormField } from '../../ui/Form';
import { useAdminMutation } from '../../useAdminMutation';

const drawsKey = (sessionId: string) => ['/api/admin/sessions', sessionId, 'draws'] as const;

interface DrawInput {
  count: number;
  minScore?: number;
}

/**
 * The session's prize draw (DESIGN §11): draw 1–10 winners among the players who ticked the
 * consent box, see every earlier draw, and put a draw's names on the big screen.
 */
export function PrizeDrawDialog({ open, session, onClose }: { open: boolean; session: Session; onClose: () => void }) {
  const [count, setCount] = useState('1');
  const [minScore, setMinScore] = useState('');
  const draws = useQuery<PrizeDraw[]>({ queryKey: drawsKey(session.id), enabled: open });
  const draw = useAdminMutation<DrawInput, PrizeDraw>({
    mutationFn: (body) => api.post(`/api/admin/sessions/${session.id}/draws`, body),
    invalidate: [drawsKey(session.id)],
    success: (result) => `${plural(result.winners.length, 'winner')} drawn from ${plural(result.eligible, 'player')}`,
    error: 'Failed to draw winners',
  });
  // During a question the server holds the winners for its end (202 { queued: true }, DESIGN §17).
  const show = useAdminMutation<string, { queued?: boolean }>({
    mutationFn: (drawId) => api.post(`/api/admin/sessions/${session.id}/draws/${drawId}/show`),
    success: (result) => (result?.queued ? 'The winners will show when this question ends' : 'Winners shown on the display'),
    error: 'Failed to show the winners',
  });

  const countValue = Number(count);
  const minValue = minScore.trim() === '' ? undefined : Number(minScore);
  const valid = Number.isInteger(countValue) && countValue >= 1 && countValue <= 10 && (minValue === undefined || (Number.isInteger(minValue) && minValue >= 0));

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (!valid || draw.isPending) return;
    draw.mutate({ count: countValue, ...(minValue === undefined ? {} : { minScore: minValue }) });
  }

  return (
    <AppDialog
      open={open}
      onOpenChange={(next) => !next && onClose()}
      size="lg"
      title="Prize Draw"
      description={
        session.prizeDraw?.enabled
          ? `Prize: ${session.prizeDraw.prize}. Winners are drawn at random among players who ticked the consent box; nobody wins twice.`
          : 'This session has no prize draw: turn it on in Edit so the join form asks for consent.'
      }
    >
      <form className="flex flex-wrap items-end gap-4" onSubmit={onSubmit}>
        <FormField id="draw-count" label="Winners">
          {(field) => <Input {...field} type="number" min={1} max={10} className="w-28" value={count} onChange={(e) => setCount(e.target.value)} />}
        </FormField>
        <FormField id="draw-min-score" label="Minimum Score (optional)">
          {(field) => <Input {...field} type="number" min={0} className="w-40" value={minScore} onChange={(e) => setMinScore(e.target.value)} />}
        </FormField>
        <Button type="submit" disabled={!valid || draw.isPending}>
          <Trophy aria-hidden />
          {draw.isPending ? 'Drawing...' : 'Draw'}
        </Button>
        <div className="w-full">
          <HelpText>1 to 10 winners; only players with at least the minimum score take part.</HelpText>
        </div>
      </form>

      <h4 className="mt-6 mb-2 font-semibold">Draws</h4>
      {draws.isLoading && <p className="text-sm text-muted">Loading draws...</p>}
      {draws.data?.length === 0 && <p className="text-sm text-muted">No draws yet.</p>}
      <ol className="grid gap-3" data-testid="draw-list">
        {draws.data?.map((d) => (
          <li key={d.id} className="rounded-lg border border-border p-4" data-testid="draw">
            <div className="flex flex-wrap items-center justify-between gap-2">
              <p className="text-sm text-muted">
                {formatDateTime(d.createdAt)} · by {d.drawnBy} · among {plural(d.eligible, 'player')}
                {d.minScore !== null ? ` with at least ${d.minScore} points` : ''}
              </p>
              <Button size="sm" variant="outline" disabled={show.isPending} onClick={() => show.mutate(d.id)}>
                <Monitor aria-hidden />
                Show on display
              </Button>
            </div>
            <ul className="mt-2 grid gap-1">
              {d.winners.map((w) => (
                <li key={w.player.id} className="flex flex-wrap gap-x-3">
                  <bdi className="font-semibold">{w.player.name}</bdi>
                  <span className="text-muted">{w.player.email}</span>
                  <span className="text-muted">{w.pointsTotal} pts</span>
                </li>
              ))}
            </ul>
          </li>
        ))}
      </ol>
    </AppDialog>
  );
}
