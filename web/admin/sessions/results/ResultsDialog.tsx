import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { ArrowLeft, ChevronLeft, ChevronRight, Download } from 'lucide-react';
import type { PlayerResults, QuestionResults, ResultsLeaderboardEntry, SessionResults } from '../../../../protocol/api';
import { buttonClass, Button } from '../../../common/ui/Button';
import type { Session } from '../../types';
import { AppDialog } from '../../ui/Dialog';

/** Rows per page of the leaderboard: 10,000 players are 200 pages, never 10,000 rows in the page. */
export const RESULTS_PAGE_SIZE = 50;
/** While the game runs the results follow it. */
const LIVE_REFRESH_MS = 5_000;
const LETTERS = ['A', 'B', 'C', 'D'];

const resultsKey = (sessionId: string) => ['/api/admin/sessions', sessionId, 'results'] as const;

/** '62%' of answers right; '—' when nobody answered. */
export function percentCorrect(correct: number, answers: number): string {
  return answers === 0 ? '—' : `${Math.round((100 * correct) / answers)}%`;
}

/** 4,200 ms → '4.2 s'; null → '—'. */
export function formatAnswerTime(ms: number | null): string {
  return ms === null ? '—' : `${(ms / 1000).toFixed(1)} s`;
}

/**
 * A session's results (DESIGN §10), during the game and after it: the full leaderboard a page at
 * a time, each question's numbers and split, each player's answers, and the CSV downloads.
 */
export function ResultsDialog({ open, session, onClose }: { open: boolean; session: Session; onClose: () => void }) {
  const [tab, setTab] = useState<'leaderboard' | 'questions'>('leaderboard');
  const [playerId, setPlayerId] = useState<string | null>(null);
  const results = useQuery<SessionResults>({
    queryKey: resultsKey(session.id),
    enabled: open,
    refetchInterval: session.status === 'live' ? LIVE_REFRESH_MS : false,
  });

  return (
    <AppDialog
      open={open}
      onOpenChange={(next) => {
        if (!next) {
          setPlayerId(null);
          onClose();
        }
      }}
      size="xl"
      title={`Results: ${session.title}`}
      description={session.status === 'live' ? 'The game is running: these numbers follow it.' : 'Everyone who answered, and how each question went.'}
      footer={
        <>
          <a className={buttonClass('outline', 'sm')} href={`/api/admin/sessions/${session.id}/results.csv`} download data-testid="download-results">
            <Download aria-hidden />
            Leaderboard CSV
          </a>
          <a className={buttonClass('outline', 'sm')} href={`/api/admin/sessions/${session.id}/answers.csv`} download data-testid="download-answers">
            <Download aria-hidden />
            All Answers CSV
          </a>
        </>
      }
    >
      {results.isPending ? (
        <p className="text-sm text-muted">Loading results...</p>
      ) : results.isError ? (
        <p role="alert" className="text-sm text-red-300">
          Could not load the results.
        </p>
      ) : playerId ? (
        <PlayerAnswers sessionId={session.id} playerId={playerId} onBack={() => setPlayerId(null)} />
      ) : (
        <>
          <div role="tablist" aria-label="Results" className="mb-4 flex gap-2">
            {(['leaderboard', 'questions'] as const).map((name) => (
              <Button key={name} role="tab" aria-selected={tab === name} size="sm" variant={tab === name ? 'primary' : 'secondary'} onClick={() => setTab(name)}>
                {name === 'leaderboard' ? `Leaderboard (${results.data.leaderboard.length})` : `Questions (${results.data.questions.length})`}
              </Button>
            ))}
          </div>
          {tab === 'leaderboard' ? (
            <Leaderboard entries={results.data.leaderboard} onOpen={setPlayerId} />
          ) : (
            <QuestionsTable questions={results.data.questions} />
          )}
        </>
      )}
    </AppDialog>
  );
}

function Leaderboard({ entries, onOpen }: { entries: ResultsLeaderboardEntry[]; onOpen: (playerId: string) => void }) {
  const [page, setPage] = useState(0);
  const pages = Math.max(1, Math.ceil(entries.length / RESULTS_PAGE_SIZE));
  const current = Math.min(page, pages - 1);
  const shown = entries.slice(current * RESULTS_PAGE_SIZE, (current + 1) * RESULTS_PAGE_SIZE);
  if (entries.length === 0) return <p className="text-sm text-muted">No answers yet.</p>;
  return (
    <div className="grid gap-3">
      {/* A wide table pans sideways inside the dialog on a phone; the dialog itself keeps its width. */}
      <div className="overflow-x-auto" data-scroll-x>
      <table className="w-full text-sm" data-testid="results-leaderboard">
        <thead className="text-left text-muted">
          <tr>
            <th className="py-1 pr-3">Rank</th>
            <th className="py-1 pr-3">Player</th>
            <th className="py-1 pr-3">Email</th>
            <th className="py-1 pr-3 text-right">Points</th>
            <th className="py-1 pr-3 text-right">Answered</th>
            <th className="py-1 text-right">Correct</th>
          </tr>
        </thead>
        <tbody>
          {shown.map((e) => (
            <tr key={e.player.id} className="border-t border-border" data-testid="results-row">
              <td className="py-1.5 pr-3 font-semibold">#{e.rank}</td>
              <td className="max-w-56 truncate py-1.5 pr-3">
                <button type="button" className="truncate text-left font-medium underline-offset-2 hover:underline" onClick={() => onOpen(e.player.id)}>
                  <bdi>{e.player.name}</bdi>
                </button>
              </td>
              <td className="max-w-56 truncate py-1.5 pr-3 text-muted">{e.player.email}</td>
              <td className="py-1.5 pr-3 text-right font-semibold">{e.pointsTotal}</td>
              <td className="py-1.5 pr-3 text-right">{e.answered}</td>
              <td className="py-1.5 text-right">{e.correct}</td>
            </tr>
          ))}
        </tbody>
      </table>
      </div>
      {pages > 1 && (
        <div className="flex items-center justify-end gap-2 text-sm">
          <Button size="sm" variant="secondary" disabled={current === 0} onClick={() => setPage(current - 1)} aria-label="Previous page">
            <ChevronLeft aria-hidden />
          </Button>
          <span data-testid="results-page">
            Page {current + 1} of {pages}
          </span>
          <Button size="sm" variant="secondary" disabled={current >= pages - 1} onClick={() => setPage(current + 1)} aria-label="Next page">
            <ChevronRight aria-hidden />
          </Button>
        </div>
      )}
    </div>
  );
}

function QuestionsTable({ questions }: { questions: QuestionResults[] }) {
  if (questions.length === 0) return <p className="text-sm text-muted">This session has no questions.</p>;
  return (
    <ol className="grid gap-3" data-testid="results-questions">
      {questions.map((q) => (
        <li key={q.questionId} className="rounded-lg border border-border p-3" data-testid="results-question">
          <p className="font-medium">{q.text}</p>
          <p className="mt-1 flex flex-wrap gap-x-4 text-sm text-muted" data-testid="results-question-stats">
            <span>Asked {q.askings}×</span>
            <span>{q.answers} answers</span>
            <span>{percentCorrect(q.correct, q.answers)} correct</span>
            <span>Average {formatAnswerTime(q.averageMs)}</span>
          </p>
          <Split question={q} />
        </li>
      ))}
    </ol>
  );
}

function Split({ question }: { question: QuestionResults }) {
  const total = question.distribution.reduce((a, b) => a + b, 0);
  return (
    <ul className="mt-2 grid gap-1 text-sm">
      {question.distribution.map((n, i) => {
        const share = total === 0 ? 0 : Math.round((100 * n) / total);
        const correct = i === question.correctIndex;
        return (
          <li key={i} className="grid grid-cols-[1.5rem_minmax(0,14rem)_1fr_5rem] items-center gap-2" data-testid="results-split" data-correct={correct || undefined}>
            <span className={correct ? 'font-bold text-green-400' : 'text-muted'}>{LETTERS[i]}</span>
            <span className="truncate" title={question.choices[i]}>
              {question.choices[i]}
            </span>
            <span className="h-2 overflow-hidden rounded-full bg-white/10">
              <span className={`block h-full rounded-full ${correct ? 'bg-green-500' : 'bg-primary/60'}`} style={{ width: `${share}%` }} />
            </span>
            <span className="text-right tabular-nums">
              {n} · {share}%
            </span>
          </li>
        );
      })}
    </ul>
  );
}

function PlayerAnswers({ sessionId, playerId, onBack }: { sessionId: string; playerId: string; onBack: () => void }) {
  const answers = useQuery<PlayerResults>({ queryKey: ['/api/admin/sessions', sessionId, 'results', 'players', playerId] });
  return (
    <div className="grid gap-3" data-testid="player-answers">
      <div className="flex items-center gap-3">
        <Button size="sm" variant="secondary" onClick={onBack}>
          <ArrowLeft aria-hidden />
          Back
        </Button>
        {answers.data && (
          <p className="min-w-0 truncate">
            <bdi className="font-semibold">{answers.data.player.name}</bdi> <span className="text-muted">{answers.data.player.email}</span>
          </p>
        )}
      </div>
      {answers.isPending && <p className="text-sm text-muted">Loading answers...</p>}
      {answers.data?.answers.length === 0 && <p className="text-sm text-muted">No answers yet.</p>}
      {answers.data && answers.data.answers.length > 0 && (
        // A wide table pans sideways inside the dialog on a phone; the dialog itself keeps its width.
        <div className="overflow-x-auto" data-scroll-x>
        <table className="w-full text-sm">
          <thead className="text-left text-muted">
            <tr>
              <th className="py-1 pr-3">Question</th>
              <th className="py-1 pr-3">Answer</th>
              <th className="py-1 pr-3 text-right">Points</th>
              <th className="py-1 text-right">Time</th>
            </tr>
          </thead>
          <tbody>
            {answers.data.answers.map((a) => (
              <tr key={a.asking} className="border-t border-border" data-testid="player-answer">
                <td className="max-w-72 truncate py-1.5 pr-3" title={a.text}>
                  {a.text}
                </td>
                <td className={`py-1.5 pr-3 ${a.isCorrect ? 'text-green-400' : 'text-red-300'}`}>
                  {LETTERS[a.selectedIndex]}: {a.choice} {a.isCorrect ? '✓' : '✗'}
                </td>
                <td className="py-1.5 pr-3 text-right">{a.pointsEarned}</td>
                <td className="py-1.5 text-right">{formatAnswerTime(a.answerMs)}</td>
              </tr>
            ))}
          </tbody>
        </table>
        </div>
      )}
    </div>
  );
}
