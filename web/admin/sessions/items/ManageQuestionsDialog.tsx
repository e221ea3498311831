import { useState } from 'react';
import { DropdownMenu } from 'radix-ui';
import { ChevronDown, Film, ListPlus, Presentation } from 'lucide-react';
import { Button } from '../../../common/ui/Button';
import { useSessionItems } from '../../queries';
import type { Session, SlideType } from '../../types';
import { AppDialog } from '../../ui/Dialog';
import { AddQuestionsPanel } from './AddQuestionsPanel';
import { ItemRow } from './ItemRow';
import { JoinSlideDialog } from './JoinSlideDialog';
import { useItemActions } from './useItemActions';

const SLIDE_MENU: Array<{ type: SlideType; label: string }> = [
  { type: 'intro', label: 'Intro' },
  { type: 'rules', label: 'Rules' },
  { type: 'break', label: 'Break' },
  { type: 'leaderboard', label: 'Leaderboard' },
  { type: 'join', label: 'Join Slide (QR Code)' },
];

interface Props {
  open: boolean;
  session: Session;
  onClose: () => void;
}

/** The session's ordered items and the ways to add to them (SPEC §2 "Session item list"). */
export function ManageQuestionsDialog({ open, session, onClose }: Props) {
  const [view, setView] = useState<'items' | 'add'>('items');
  const [joinOpen, setJoinOpen] = useState(false);
  const items = useSessionItems(session.id);
  const actions = useItemActions(session.id);
  const list = items.data ?? [];

  function addSlide(slideType: SlideType) {
    if (slideType === 'join') setJoinOpen(true);
    else actions.addSlide.mutate({ slideType });
  }

  return (
    <AppDialog
      open={open}
      onOpenChange={(o) => {
        if (!o) {
          setView('items');
          onClose();
        }
      }}
      title="Manage Questions"
      description={`Items of ${session.title}, shown in this order.`}
      size="lg"
    >
      {view === 'add' ? (
        <AddQuestionsPanel sessionId={session.id} items={list} onDone={() => setView('items')} />
      ) : (
        <div className="grid gap-4">
          <div className="flex flex-wrap gap-2">
            <Button size="sm" onClick={() => setView('add')}>
              <ListPlus aria-hidden />
              Add Questions
            </Button>
            <Button
              size="sm"
              variant="secondary"
              disabled={actions.addMediaBlock.isPending}
              onClick={() => actions.addMediaBlock.mutate()}
            >
              <Film aria-hidden />
              Add Media Block
            </Button>
            <DropdownMenu.Root>
              <DropdownMenu.Trigger asChild>
                <Button size="sm" variant="secondary" disabled={actions.addSlide.isPending}>
                  <Presentation aria-hidden />
                  Add Slide
                  <ChevronDown aria-hidden />
                </Button>
              </DropdownMenu.Trigger>
              <DropdownMenu.Portal>
                <DropdownMenu.Content
                  align="start"
                  sideOffset={4}
                  className="z-[60] min-w-48 rounded-md border border-border bg-surface-2 p-1 shadow-xl"
                >
                  {SLIDE_MENU.map(({ type, label }) => (
                    <DropdownMenu.Item
                      key={type}
                      onSelect={() => addSlide(type)}
                      className="cursor-pointer rounded px-3 py-2 text-sm outline-none data-[highlighted]:bg-primary data-[highlighted]:text-white"
                    >
                      {label}
                    </DropdownMenu.Item>
                  ))}
                </DropdownMenu.Content>
              </DropdownMenu.Portal>
            </DropdownMenu.Root>
          </div>

          {items.isPending ? (
            <p role="status" className="text-muted">
              Loading items...
            </p>
          ) : list.length === 0 ? (
            <p className="rounded-lg border border-dashed border-border p-6 text-center text-muted">
              No items in this session yet. Add questions, slides or media blocks.
            </p>
          ) : (
            <ol className="grid gap-2" aria-label="Session items">
              {list.map((item, index) => (
                <ItemRow
                  key={item.id}
                  item={item}
                  position={index + 1}
                  isFirst={index === 0}
                  isLast={index === list.length - 1}
                  reorderPending={actions.reorderPending}
                  removePending={actions.removePending}
                  onMove={(direction) => actions.reorder(item, direction)}
                  onRemove={() => actions.remove(item)}
                  onSaveCount={(mediaItemCount) => actions.updateMediaBlock.mutate({ item, mediaItemCount })}
                />
              ))}
            </ol>
          )}
        </div>
      )}
      <JoinSlideDialog
        open={joinOpen}
        pending={actions.addSlide.isPending}
        onOpenChange={setJoinOpen}
        onAdd={(text) => actions.addSlide.mutate({ slideType: 'join', text }, { onSuccess: () => setJoinOpen(false) })}
      />
    </AppDialog>
  );
}
