import { useMemo, useState } from 'react';
import { ArrowLeft } from 'lucide-react';
import { api } from '../../../common/api';
import { plural } from '../../../common/format';
import { Badge } from '../../../common/ui/Card';
import { Button } from '../../../common/ui/Button';
import { keys, useQuestions } from '../../queries';
import type { SessionItem } from '../../types';
import { CategoryFilterField, useCategoryFilter } from '../../questions/CategoryFilter';
import { CheckboxField } from '../../ui/Toggles';
import { useAdminMutation } from '../../useAdminMutation';

interface Props {
  sessionId: string;
  items: SessionItem[];
  onDone: () => void;
}

/** Offers the bank's questions not yet in the session, filterable by category (SPEC §2). */
export function AddQuestionsPanel({ sessionId, items, onDone }: Props) {
  const questions = useQuestions();
  const [selected, setSelected] = useState<Set<string>>(new Set());

  const inSession = useMemo(() => new Set(items.map((i) => i.questionId).filter(Boolean)), [items]);
  const available = (questions.data ?? []).filter((q) => !inSession.has(q.id));
  const categoryFilter = useCategoryFilter(available);
  const { shown } = categoryFilter;

  // One call per selected question, in the order they are listed (SPEC §7).
  const add = useAdminMutation<string[], number>({
    mutationFn: async (ids) => {
      for (const questionId of ids) {
        await api.post(`/api/admin/sessions/${sessionId}/questions`, { questionId });
      }
      return ids.length;
    },
    invalidate: [keys.sessionItems(sessionId), keys.sessionQuestions(sessionId), keys.questions],
    success: (n) => `${plural(n, 'question')} added to session`,
    error: 'Failed to add questions',
    onSuccess: onDone,
  });

  function toggle(id: string, on: boolean) {
    setSelected((prev) => {
      const next = new Set(prev);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });
  }

  const ordered = available.filter((q) => selected.has(q.id)).map((q) => q.id);

  return (
    <div className="grid gap-4">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <Button variant="ghost" size="sm" onClick={onDone}>
          <ArrowLeft aria-hidden />
          Back to items
        </Button>
        <CategoryFilterField id="add-questions-category" label="Category" filter={categoryFilter} className="grid w-56 gap-1" />
      </div>
      {questions.isPending ? (
        <p role="status" className="text-muted">
          Loading questions...
        </p>
      ) : shown.length === 0 ? (
        <p className="rounded-lg border border-dashed border-border p-6 text-center text-muted">
          No questions available to add.
        </p>
      ) : (
        <ul className="grid gap-2" aria-label="Questions to add">
          {shown.map((q) => (
            <li key={q.id} className="rounded-lg border border-border bg-surface-2 p-3">
              <CheckboxField
                id={`add-question-${q.id}`}
                checked={selected.has(q.id)}
                onCheckedChange={(on) => toggle(q.id, on)}
                label={
                  <span className="grid gap-1">
                    <span>{q.text}</span>
                    {q.categories.length > 0 && (
                      <span className="flex flex-wrap gap-1">
                        {q.categories.map((c) => (
                          <Badge key={c}>{c}</Badge>
                        ))}
                      </span>
                    )}
                  </span>
                }
              />
            </li>
          ))}
        </ul>
      )}
      <div className="flex justify-end">
        <Button disabled={ordered.length === 0 || add.isPending} onClick={() => add.mutate(ordered)}>
          {add.isPending ? 'Adding...' : `Add Selected (${ordered.length})`}
        </Button>
      </div>
    </div>
  );
}
