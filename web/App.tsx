import { lazy, Suspense } from 'react';
import { Route, Switch } from 'wouter';
import NotFound from './common/NotFound';
import { PageLoader } from './common/PageLoader';
import { Toaster } from './common/Toaster';

// One lazily loaded tree per audience, so a phone joining a game never downloads the admin.
const LoginPage = lazy(() => import('./admin/LoginPage'));
const AdminPage = lazy(() => import('./admin/AdminPage'));
const DisplayPage = lazy(() => import('./display/DisplayPage'));
const AuditoriumScreen = lazy(() => import('./display/AuditoriumScreen'));
const PlayerJoinPage = lazy(() => import('./player/PlayerJoinPage'));
const PlayerGamePage = lazy(() => import('./player/PlayerGamePage'));

export function App() {
  return (
    <>
      <Suspense fallback={<PageLoader />}>
        <Switch>
          <Route path="/" component={LoginPage} />
          <Route path="/admin/login" component={LoginPage} />
          <Route path="/admin" component={AdminPage} />
          <Route path="/display/auditorium/:auditoriumId">
            <Suspense fallback={<PageLoader text="Loading..." />}>
              <AuditoriumScreen />
            </Suspense>
          </Route>
          <Route path="/display/:sessionId">
            {/* SPEC §2: the display reads 'Loading session...' from its first frame, while its code arrives too. */}
            <Suspense fallback={<PageLoader text="Loading session..." />}>
              <DisplayPage />
            </Suspense>
          </Route>
          <Route path="/player/:sessionId" component={PlayerJoinPage} />
          <Route path="/player/:sessionId/game" component={PlayerGamePage} />
          <Route component={NotFound} />
        </Switch>
      </Suspense>
      <Toaster />
    </>
  );
}
