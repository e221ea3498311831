import { Tabs } from 'radix-ui';
import { Film, HelpCircle, Image, Theater, Users } from 'lucide-react';
import { useDocumentTitle } from '../common/ui/useDocumentTitle';
import { DashboardHeader } from './DashboardHeader';
import { SessionsTab } from './sessions/SessionsTab';
import { QuestionsTab } from './questions/QuestionsTab';
import { MediaTab } from './media/MediaTab';
import { PlayersTab } from './players/PlayersTab';
import { AuditoriumsTab } from './auditoriums/AuditoriumsTab';

const TABS = [
  { value: 'sessions', label: 'Sessions', icon: Film, Content: SessionsTab },
  { value: 'questions', label: 'Questions', icon: HelpCircle, Content: QuestionsTab },
  { value: 'media', label: 'Media', icon: Image, Content: MediaTab },
  { value: 'players', label: 'Players', icon: Users, Content: PlayersTab },
  { value: 'auditoriums', label: 'Auditoriums', icon: Theater, Content: AuditoriumsTab },
] as const;

export function Dashboard() {
  useDocumentTitle('Admin Dashboard');
  return (
    <div className="min-h-screen">
      <DashboardHeader />
      <main className="mx-auto max-w-7xl px-4 py-6 sm:px-6">
        <Tabs.Root defaultValue="sessions">
          <Tabs.List
            aria-label="Dashboard sections"
            className="mb-6 flex gap-1 rounded-lg border border-border bg-surface p-1 max-[359px]:gap-0.5"
          >
            {/* On a phone the five pills stack icon over label in a smaller size and share the width by
                their labels' lengths (equal fifths cut 'Auditoriums' at 390 px); from sm up icon beside label, still
                by length ('Questions' and 'Auditoriums' did not fit equal fifths at 640 px); from md up, equal fifths.
                Under 360 px the gaps and paddings halve: the five labels need 243 px, and 320 px gave 222. */}
            {TABS.map(({ value, label, icon: Icon }) => (
              <Tabs.Trigger
                key={value}
                value={value}
                className="flex min-w-0 flex-auto flex-col items-center justify-center gap-1 rounded-md px-1 py-1.5 text-[0.6875rem] max-[359px]:px-0.5 font-medium text-muted transition-colors hover:text-foreground data-[state=active]:bg-primary data-[state=active]:text-white md:flex-1 sm:flex-row sm:gap-2 sm:px-3 sm:py-2 sm:text-sm"
              >
                <Icon className="size-4 shrink-0" aria-hidden />
                <span className="max-w-full truncate">{label}</span>
              </Tabs.Trigger>
            ))}
          </Tabs.List>
          {TABS.map(({ value, Content }) => (
            <Tabs.Content key={value} value={value} className="outline-none">
              <Content />
            </Tabs.Content>
          ))}
        </Tabs.Root>
      </main>
    </div>
  );
}
