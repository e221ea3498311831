import { useState } from 'react';
import { ArrowDown, ArrowUp, Check, Pencil, Trash2, X } from 'lucide-react';
import { Badge } from '../../../common/ui/Card';
import { Button } from '../../../common/ui/Button';
import { Input } from '../../../common/ui/Field';
import type { SessionItem } from '../../types';
import type { Direction } from './useItemActions';

export const SLIDE_LABELS = {
  intro: 'Intro',
  rules: 'Rules',
  break: 'Break',
  leaderboard: 'Leaderboard',
  join: 'Join',
} as const;

/** SPEC §5: 1 to 20, and a non-numeric input becomes 1. */
export function parseMediaBlockCount(raw: string): number {
  const value = Math.round(Number(raw));
  if (!raw.trim() || Number.isNaN(value)) return 1;
  return Math.min(20, Math.max(1, value));
}

interface Props {
  item: SessionItem;
  position: number;
  isFirst: boolean;
  isLast: boolean;
  reorderPending: boolean;
  removePending: boolean;
  onMove: (direction: Direction) => void;
  onRemove: () => void;
  onSaveCount: (count: number) => void;
}

export function ItemRow(props: Props) {
  const { position, isFirst, isLast, reorderPending, removePending, onMove, onRemove } = props;
  return (
    <li className="flex items-start gap-3 rounded-lg border border-border bg-surface-2 p-3" data-testid="session-item">
      <span className="flex size-8 shrink-0 items-center justify-center rounded-full bg-background text-sm font-bold">
        {position}
      </span>
      <div className="min-w-0 flex-1">
        <ItemBody {...props} />
      </div>
      <div className="flex shrink-0 gap-1">
        <Button
          variant="ghost"
          size="icon"
          aria-label={`Move item ${position} up`}
          disabled={isFirst || reorderPending}
          onClick={() => onMove('up')}
        >
          <ArrowUp aria-hidden />
        </Button>
        <Button
          variant="ghost"
          size="icon"
          aria-label={`Move item ${position} down`}
          disabled={isLast || reorderPending}
          onClick={() => onMove('down')}
        >
          <ArrowDown aria-hidden />
        </Button>
        <Button
          variant="ghost"
          size="icon"
          className="text-red-300"
          aria-label={`Remove item ${position}`}
          disabled={removePending}
          onClick={onRemove}
        >
          <Trash2 aria-hidden />
        </Button>
      </div>
    </li>
  );
}

function ItemBody({ item, position, onSaveCount }: Props) {
  if (item.itemType === 'media_block') {
    return <MediaBlockBody item={item} position={position} onSave={onSaveCount} />;
  }
  if (item.itemType === 'slide' && item.slideType) {
    const label = SLIDE_LABELS[item.slideType];
    return (
      <div className="grid gap-1">
        <Badge tone="info" className="w-fit">
          {label} Slide
        </Badge>
        <p className="text-sm text-muted">{label} slide will be displayed</p>
        {item.slideType === 'join' && item.slideData?.text && <p className="text-sm">“{item.slideData.text}”</p>}
      </div>
    );
  }
  const q = item.question;
  if (!q) return <p className="text-sm text-muted">Unknown item</p>;
  return (
    <div className="grid gap-1.5">
      <div className="flex flex-wrap items-center gap-1.5 text-xs">
        {q.categories.map((c) => (
          <Badge key={c}>{c}</Badge>
        ))}
        <span className="text-muted">{q.points} pts</span>
        <span className="text-muted">·</span>
        <span className="text-muted">{q.timeLimitSeconds}s</span>
      </div>
      <p className="break-words text-sm">{q.text}</p>
    </div>
  );
}

function MediaBlockBody({ item, position, onSave }: { item: SessionItem; position: number; onSave: (n: number) => void }) {
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState('1');
  const count = item.mediaItemCount ?? 1;
  const inputId = `media-block-count-${item.id}`;

  if (editing) {
    return (
      <form
        noValidate
        className="flex flex-wrap items-center gap-2"
        onSubmit={(e) => {
          e.preventDefault();
          onSave(parseMediaBlockCount(draft));
          setEditing(false);
        }}
      >
        <Badge tone="warning">Media Block</Badge>
        <label htmlFor={inputId} className="text-sm">
          Media items
        </label>
        <Input
          id={inputId}
          type="number"
          min={1}
          max={20}
          className="h-8 w-20"
          value={draft}
          autoFocus
          onChange={(e) => setDraft(e.target.value)}
        />
        <Button type="submit" size="sm">
          <Check aria-hidden />
          Save
        </Button>
        <Button size="sm" variant="outline" onClick={() => setEditing(false)}>
          <X aria-hidden />
          Cancel
        </Button>
      </form>
    );
  }
  return (
    <div className="flex flex-wrap items-center gap-2">
      <Badge tone="warning">Media Block</Badge>
      <span className="text-sm">{count === 1 ? '1 item' : `${count} items`}</span>
      <Button
        variant="ghost"
        size="icon"
        aria-label={`Edit media count of item ${position}`}
        onClick={() => {
          setDraft(String(count));
          setEditing(true);
        }}
      >
        <Pencil aria-hidden />
      </Button>
    </div>
  );
}
