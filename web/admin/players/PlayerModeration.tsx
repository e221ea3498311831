import { useState, type FormEvent } from 'react';
import { Eye, EyeOff, Pencil, UserX } from 'lucide-react';
import { api } from '../../common/api';
import { Button } from '../../common/ui/Button';
import { Input, Label } from '../../common/ui/Field';
import { keys } from '../queries';
import { AppDialog, ConfirmDialog } from '../ui/Dialog';
import { useAdminMutation } from '../useAdminMutation';

/** The player as moderation needs it: a leaderboard entry knows less than the Players tab. */
export interface ModeratedPlayer {
  id: string;
  name: string;
  sessionId: string;
  hidden: boolean;
}

/**
 * Kick (confirmed), Hide/Show and Rename for one player of a session (DESIGN §15), in Live
 * Controls and the Players tab. The server updates every screen; here only the lists refresh.
 */
export function PlayerModerationButtons({ player }: { player: ModeratedPlayer }) {
  const [kicking, setKicking] = useState(false);
  const [renaming, setRenaming] = useState(false);
  const base = `/api/admin/sessions/${encodeURIComponent(player.sessionId)}/players/${encodeURIComponent(player.id)}`;
  const kick = useAdminMutation({
    mutationFn: () => api.post(`${base}/kick`),
    invalidate: [keys.players],
    success: 'Player removed',
    error: 'Failed to remove player',
    onSuccess: () => setKicking(false),
  });
  const hide = useAdminMutation<boolean>({
    mutationFn: (hidden) => api.post(`${base}/hide`, { hidden }),
    invalidate: [keys.players],
    success: (_r, hidden) => (hidden ? 'Name hidden on the screens' : 'Name shown on the screens'),
    error: 'Failed to change the name shown',
  });
  return (
    <div className="flex shrink-0 gap-1">
      <Button size="icon" variant="ghost" aria-label={`Rename ${player.name}`} title="Rename" onClick={() => setRenaming(true)}>
        <Pencil aria-hidden />
      </Button>
      <Button
        size="icon"
        variant="ghost"
        aria-label={player.hidden ? `Show the name of ${player.name}` : `Hide the name of ${player.name}`}
        title={player.hidden ? 'Show name' : 'Hide name'}
        disabled={hide.isPending}
        onClick={() => hide.mutate(!player.hidden)}
      >
        {player.hidden ? <Eye aria-hidden /> : <EyeOff aria-hidden />}
      </Button>
      <Button size="icon" variant="ghost" className="text-red-300" aria-label={`Kick ${player.name}`} title="Kick" onClick={() => setKicking(true)}>
        <UserX aria-hidden />
      </Button>
      <ConfirmDialog
        open={kicking}
        onOpenChange={setKicking}
        title="Kick Player"
        description={<>Remove <bdi>{player.name}</bdi> from this game? Their score leaves every screen and their phone cannot join this game again.</>}
        confirmLabel="Kick"
        pendingLabel="Kicking..."
        destructive
        pending={kick.isPending}
        onConfirm={() => kick.mutate()}
      />
      {renaming && <RenameDialog player={player} onClose={() => setRenaming(false)} />}
    </div>
  );
}

function RenameDialog({ player, onClose }: { player: ModeratedPlayer; onClose: () => void }) {
  const [name, setName] = useState(player.name);
  const rename = useAdminMutation<string>({
    mutationFn: (value) => api.patch(`/api/admin/players/${encodeURIComponent(player.id)}`, { name: value }),
    invalidate: [keys.players],
    success: 'Player renamed',
    error: 'Failed to rename player',
    onSuccess: onClose,
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    rename.mutate(name);
  };
  return (
    <AppDialog
      open
      onOpenChange={(open) => !open && onClose()}
      title="Rename Player"
      size="sm"
      footer={
        <>
          <Button variant="outline" onClick={onClose}>Cancel</Button>
          <Button type="submit" form={`rename-${player.id}`} disabled={rename.isPending}>
            {rename.isPending ? 'Saving...' : 'Rename'}
          </Button>
        </>
      }
    >
      <form id={`rename-${player.id}`} onSubmit={submit} className="grid gap-2">
        <Label htmlFor={`rename-input-${player.id}`}>Name shown on the screens</Label>
        <Input id={`rename-input-${player.id}`} value={name} maxLength={50} onChange={(e) => setName(e.target.value)} />
      </form>
    </AppDialog>
  );
}
