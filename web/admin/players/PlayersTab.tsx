import { useState } from 'react';
import { Download, Mail, Search, Trash2, User } from 'lucide-react';
import { api } from '../../common/api';
import { formatDate } from '../../common/format';
import { Button, buttonClass } from '../../common/ui/Button';
import { Badge, Card } from '../../common/ui/Card';
import { PlayerModerationButtons } from './PlayerModeration';
import { Input } from '../../common/ui/Field';
import { keys, usePlayers } from '../queries';
import type { Player } from '../types';
import { ConfirmDialog } from '../ui/Dialog';
import { EmptyState, LoadError, LoadingText, TabHeader } from '../ui/TabHeader';
import { useAdminMutation } from '../useAdminMutation';

/** Case-insensitive substring of name or email (SPEC §2). */
export function matchesPlayer(player: Player, search: string): boolean {
  const needle = search.trim().toLowerCase();
  return !needle || player.name.toLowerCase().includes(needle) || player.email.toLowerCase().includes(needle);
}

export function PlayersTab() {
  const players = usePlayers();
  const [search, setSearch] = useState('');
  const [deleting, setDeleting] = useState<Player | null>(null);
  const remove = useAdminMutation<string>({
    mutationFn: (id) => api.delete(`/api/admin/players/${id}`),
    invalidate: [keys.players],
    success: 'Player deleted',
    error: 'Failed to delete player',
    onSuccess: () => setDeleting(null),
  });
  const all = players.data ?? [];
  const shown = all.filter((p) => matchesPlayer(p, search));

  return (
    <section>
      <TabHeader
        title="Player Management"
        subtitle="Everyone who has registered to play"
        action={
          <a className={buttonClass('outline')} href="/api/admin/players.csv" download data-testid="download-players">
            <Download aria-hidden />
            Export CSV
          </a>
        }
      />
      <div className="relative mb-6 max-w-md">
        <Search className="pointer-events-none absolute left-3 top-1/2 size-4 -translate-y-1/2 text-muted" aria-hidden />
        <Input
          type="search"
          aria-label="Search players by name or email"
          placeholder="Search by name or email..."
          className="pl-9"
          value={search}
          onChange={(e) => setSearch(e.target.value)}
        />
      </div>
      {players.isPending ? (
        <LoadingText>Loading players...</LoadingText>
      ) : players.isError ? (
        <LoadError error={players.error} />
      ) : all.length === 0 ? (
        <EmptyState>No players registered yet</EmptyState>
      ) : shown.length === 0 ? (
        <EmptyState>No players found matching your search</EmptyState>
      ) : (
        <div className="grid gap-3 md:grid-cols-2 xl:grid-cols-3">
          {shown.map((player) => (
            <Card key={player.id} className="flex items-start gap-3 p-4" role="article" aria-label={`Player ${player.name}`} data-testid="player-card">
              <span className="flex size-10 shrink-0 items-center justify-center rounded-full bg-primary/15">
                <User className="size-5 text-primary" aria-hidden />
              </span>
              <div className="min-w-0 flex-1">
                <p className="truncate font-semibold"><bdi>{player.name}</bdi></p>
                <p className="flex items-center gap-1 text-sm text-muted" title={player.email}>
                  <Mail className="size-3.5 shrink-0" aria-hidden />
                  <span className="truncate">{player.email}</span>
                </p>
                <p className="text-xs text-muted">Joined {formatDate(player.createdAt)}</p>
                {(player.kicked || player.hidden) && (
                  <p className="mt-1 flex gap-1">
                    {player.kicked && <Badge tone="warning">Removed by the host</Badge>}
                    {!player.kicked && player.hidden && <Badge>Shown as Player {player.joinOrder}</Badge>}
                  </p>
                )}
              </div>
              {player.sessionId && !player.kicked && <PlayerModerationButtons player={{ ...player, sessionId: player.sessionId }} />}
              <Button
                size="icon"
                variant="ghost"
                className="text-red-300"
                aria-label={`Delete player ${player.name}`}
                onClick={() => setDeleting(player)}
              >
                <Trash2 aria-hidden />
              </Button>
            </Card>
          ))}
        </div>
      )}
      <ConfirmDialog
        open={!!deleting}
        onOpenChange={(o) => !o && setDeleting(null)}
        title="Delete Player"
        description={`Are you sure you want to delete player "${deleting?.name ?? ''}"? This will also delete all their answers and scores.`}
        confirmLabel="Delete"
        pendingLabel="Deleting..."
        destructive
        pending={remove.isPending}
        onConfirm={() => deleting && remove.mutate(deleting.id)}
      />
    </section>
  );
}
