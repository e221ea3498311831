import { Clock, Link2, Pencil, Star, Trash2 } from 'lucide-react';
import { Badge, Card } from '../../common/ui/Card';
import { Button } from '../../common/ui/Button';
import { cn } from '../../common/ui/cn';
import type { Question } from '../types';
import { LETTERS } from './QuestionFormDialog';

interface Props {
  question: Question;
  number: number;
  onAssign: () => void;
  onEdit: () => void;
  onDelete: () => void;
}

export function QuestionCard({ question, number, onAssign, onEdit, onDelete }: Props) {
  return (
    <Card className="grid gap-3 p-5" data-testid="question-card" role="article" aria-label={`Question ${number}`}>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="flex flex-wrap items-center gap-2 text-sm">
          <span className="font-bold text-muted">#{number}</span>
          {question.categories.map((c) => (
            <Badge key={c} tone="info">
              {c}
            </Badge>
          ))}
          <span className="flex items-center gap-1 text-muted">
            <Star className="size-3.5" aria-hidden />
            {question.points} points
          </span>
          <span className="flex items-center gap-1 text-muted">
            <Clock className="size-3.5" aria-hidden />
            {question.timeLimitSeconds}s
          </span>
        </div>
        <div className="flex gap-1">
          <Button size="icon" variant="ghost" aria-label={`Assign question ${number} to sessions`} onClick={onAssign}>
            <Link2 aria-hidden />
          </Button>
          <Button size="icon" variant="ghost" aria-label={`Edit question ${number}`} onClick={onEdit}>
            <Pencil aria-hidden />
          </Button>
          <Button size="icon" variant="ghost" className="text-red-300" aria-label={`Delete question ${number}`} onClick={onDelete}>
            <Trash2 aria-hidden />
          </Button>
        </div>
      </div>
      <p className="break-words font-medium">{question.text}</p>
      <ol className="grid gap-2 sm:grid-cols-2">
        {question.choices.map((choice, i) => {
          const correct = i === question.correctIndex;
          return (
            <li
              key={i}
              className={cn(
                'flex items-center gap-2 rounded-md border px-3 py-2 text-sm',
                correct ? 'border-green-500/50 bg-green-500/10' : 'border-border bg-surface-2',
              )}
            >
              <span className="font-bold">{LETTERS[i]}.</span>
              <span className="min-w-0 flex-1 break-words">{choice}</span>
              {correct && (
                <span className="flex shrink-0 items-center text-xs font-semibold text-green-300">
                  ✓ Correct
                </span>
              )}
            </li>
          );
        })}
      </ol>
    </Card>
  );
}
