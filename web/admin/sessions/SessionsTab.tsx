import { useState } from 'react';
import { Plus } from 'lucide-react';
import { Button } from '../../common/ui/Button';
import { keys, useAuditoriums, useSessions } from '../queries';
import type { Session } from '../types';
import { EmptyState, LoadError, LoadingText, TabHeader } from '../ui/TabHeader';
import { SessionCard, type SessionDialogKind } from './SessionCard';
import { SessionFormDialog } from './SessionFormDialog';
import { DeleteSessionDialog, RestartSessionDialog, StopSessionDialog } from './SessionConfirmDialogs';
import { QrCodeDialog } from './QrCodeDialog';
import { ScreenLinkDialog } from '../ui/ScreenLinkDialog';
import { ManageQuestionsDialog } from './items/ManageQuestionsDialog';
import { ThemeEditorDialog } from './theme/ThemeEditorDialog';
import { PrizeDrawDialog } from './draw/PrizeDrawDialog';
import { ResultsDialog } from './results/ResultsDialog';
import { LiveNowPanel } from './LiveNowPanel';

type OpenDialog = { kind: 'create' } | { kind: SessionDialogKind; sessionId: string } | null;

export function SessionsTab() {
  const sessions = useSessions();
  const auditoriums = useAuditoriums();
  const [dialog, setDialog] = useState<OpenDialog>(null);

  // Dialogs keep a session id, not a copy, so they show fresh data after refetches.
  const dialogSession: Session | undefined =
    dialog && dialog.kind !== 'create' ? sessions.data?.find((s) => s.id === dialog.sessionId) : undefined;
  const close = () => setDialog(null);
  const isOpen = (kind: SessionDialogKind) => dialog?.kind === kind && !!dialogSession;

  return (
    <section aria-labelledby="sessions-heading">
      <TabHeader
        title="Sessions"
        subtitle="Create and manage trivia sessions"
        action={
          <Button onClick={() => setDialog({ kind: 'create' })}>
            <Plus aria-hidden />
            Create Session
          </Button>
        }
      />
      <LiveNowPanel />
      {sessions.isPending ? (
        <LoadingText>Loading sessions...</LoadingText>
      ) : sessions.isError ? (
        <LoadError error={sessions.error} />
      ) : sessions.data.length === 0 ? (
        <EmptyState>No sessions yet. Create your first session!</EmptyState>
      ) : (
        <div className="grid gap-4 md:grid-cols-2 xl:grid-cols-3">
          {sessions.data.map((session) => (
            <SessionCard
              key={session.id}
              session={session}
              auditoriumName={auditoriums.data?.find((a) => a.id === session.auditoriumId)?.name}
              onOpen={(kind) => setDialog({ kind, sessionId: session.id })}
            />
          ))}
        </div>
      )}

      <SessionFormDialog
        open={dialog?.kind === 'create' || isOpen('edit')}
        session={dialog?.kind === 'edit' ? dialogSession : undefined}
        onOpenChange={(open) => !open && close()}
      />
      {dialogSession && (
        <>
          <DeleteSessionDialog open={isOpen('delete')} session={dialogSession} onClose={close} />
          <RestartSessionDialog open={isOpen('restart')} session={dialogSession} onClose={close} />
          <StopSessionDialog open={isOpen('stop')} session={dialogSession} onClose={close} />
          <QrCodeDialog open={isOpen('qr')} session={dialogSession} onClose={close} />
          <ScreenLinkDialog
            open={isOpen('screen')}
            title="Screen Link"
            description={`Open this address on the big screen of ${dialogSession.title}.`}
            queryKey={keys.sessionScreenLink(dialogSession.id)}
            onClose={close}
          />
          <ManageQuestionsDialog open={isOpen('questions')} session={dialogSession} onClose={close} />
          <ThemeEditorDialog open={isOpen('theme')} session={dialogSession} onClose={close} />
          <PrizeDrawDialog open={isOpen('draw')} session={dialogSession} onClose={close} />
          <ResultsDialog open={isOpen('results')} session={dialogSession} onClose={close} />
        </>
      )}
    </section>
  );
}
