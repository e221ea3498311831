import { useEffect, useMemo, useState, type FormEvent } from 'react';
import { useLocation, useParams, useSearch } from 'wouter';
import { HttpError, api } from '../common/api';
import { usePublicSession } from '../common/realtime/usePublicSession';
import { errorToast } from '../common/toast';
import { useDocumentTitle } from '../common/ui/useDocumentTitle';
import { AccessRestricted } from './AccessRestricted';
import { PhoneScreen } from './PhoneScreen';
import { PrizeConsent } from './PrizeConsent';
import {
  JOIN_FAILED_MESSAGE,
  PLAYER_NAME_MAX,
  VALIDATION_NETWORK_MESSAGE,
  linkSignature,
  parseJoinFailure,
  validateJoin,
  type JoinErrors,
} from './joinForm';
import { loadPlayer, savePlayer, type StoredPlayer } from './playerStorage';
import { GameNotFound } from './GameNotFound';

type Access = { state: 'checking' } | { state: 'open' } | { state: 'restricted'; message: string };

/**
 * The join form (SPEC §2 "Player join screen", §4, §5, §8). A signed link (`t`, `sig`) is
 * checked on load; a refusal, on load or at registration, shows 'Access Restricted'.
 */
export default function PlayerJoinPage() {
  const { sessionId } = useParams<{ sessionId: string }>();
  const search = useSearch();
  const [, navigate] = useLocation();
  const info = usePublicSession(sessionId);
  const signature = useMemo(() => linkSignature(search), [search]);
  const access = useAccessCheck(sessionId, signature);
  const [restricted, setRestricted] = useState<string | null>(null);
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [errors, setErrors] = useState<JoinErrors>({});
  const [joining, setJoining] = useState(false);
  const [prizeConsent, setPrizeConsent] = useState(false);
  const title = info.state === 'ready' ? info.session.title : '';
  const prizeDraw = info.state === 'ready' && info.session.prizeDraw?.enabled ? info.session.prizeDraw : null;
  useDocumentTitle(title ? `Join ${title}` : 'Join');

  const restrictedMessage = restricted ?? (access.state === 'restricted' ? access.message : null);
  if (info.state === 'not_found') return <PhoneScreen theme={null}><GameNotFound /></PhoneScreen>;
  const theme = info.state === 'ready' ? info.session.theme : null;
  if (restrictedMessage !== null) return <PhoneScreen theme={theme}><AccessRestricted message={restrictedMessage} /></PhoneScreen>;
  if (info.state === 'loading' || access.state === 'checking') return <PhoneScreen theme={theme}><Centered>Loading...</Centered></PhoneScreen>;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const { values, errors: found } = validateJoin({ name, email });
    setErrors(found);
    if (found.name || found.email) return;
    setJoining(true);
    try {
      const player = await api.post<StoredPlayer>('/api/player/register', {
        ...values,
        sessionId,
        ...(signature ?? {}),
        prizeConsent: prizeDraw !== null && prizeConsent,
        // This phone's token for this game, if it joined before: it gets the same player back.
        playerToken: loadPlayer(sessionId)?.playerToken ?? null,
      });
      savePlayer({ ...player, sessionId: player.sessionId ?? sessionId });
      navigate(`/player/${encodeURIComponent(sessionId)}/game`);
    } catch (error) {
      setJoining(false);
      const failure = parseJoinFailure(error instanceof HttpError ? error.bodyText : undefined);
      if (failure.returnToTheater) setRestricted(failure.message ?? '');
      else if (failure.nameHint) setErrors({ name: failure.nameHint });
      else errorToast(failure.message ?? JOIN_FAILED_MESSAGE);
    }
  };

  return (
    <PhoneScreen theme={theme}>
      <div className="flex w-full flex-col gap-6">
        <header className="text-center">
          <h1 className="mq-heading text-3xl font-bold break-words">{title}</h1>
          <p className="mt-2 text-base opacity-80">Join the live trivia game! Enter your details to start playing.</p>
        </header>
        <form onSubmit={submit} noValidate className="flex flex-col gap-5">
          <Field
            id="player-name"
            label="Your Name"
            value={name}
            onChange={setName}
            error={errors.name}
            inputProps={{ autoComplete: 'nickname', maxLength: PLAYER_NAME_MAX, placeholder: 'Enter your name', enterKeyHint: 'next' }}
          />
          <Field
            id="player-email"
            label="Email Address"
            value={email}
            onChange={setEmail}
            error={errors.email}
            inputProps={{ type: 'email', autoComplete: 'email', inputMode: 'email', placeholder: 'you@example.com', enterKeyHint: 'go' }}
          />
          {prizeDraw && <PrizeConsent draw={prizeDraw} checked={prizeConsent} onChange={setPrizeConsent} />}
          <button
            type="submit"
            disabled={joining}
            className="min-h-14 rounded-xl px-6 text-lg font-bold transition-opacity disabled:opacity-60"
            style={{ backgroundColor: 'var(--mq-primary)', color: 'var(--mq-on-primary)' }}
          >
            {joining ? 'Joining...' : 'Join Game'}
          </button>
        </form>
      </div>
    </PhoneScreen>
  );
}

function Field(props: {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  error?: string;
  inputProps: React.InputHTMLAttributes<HTMLInputElement>;
}) {
  const errorId = `${props.id}-error`;
  return (
    <div className="flex flex-col gap-2">
      <label htmlFor={props.id} className="text-base font-semibold">
        {props.label}
      </label>
      <input
        id={props.id}
        value={props.value}
        onChange={(event) => props.onChange(event.target.value)}
        aria-invalid={props.error ? true : undefined}
        aria-describedby={props.error ? errorId : undefined}
        className="min-h-13 w-full rounded-xl border-2 border-white/20 bg-black/30 px-4 text-lg text-(--mq-text) placeholder:text-white/40 focus:border-(--mq-primary) focus:outline-none"
        {...props.inputProps}
      />
      {props.error && (
        <p id={errorId} role="alert" className="text-sm font-medium text-red-400">
          {props.error}
        </p>
      )}
    </div>
  );
}

function Centered({ children }: { children: React.ReactNode }) {
  return (
    <p role="status" className="py-20 text-center text-xl opacity-80">
      {children}
    </p>
  );
}

/** SPEC §4: when both `t` and `sig` are present, access is validated on load. */
function useAccessCheck(sessionId: string, signature: ReturnType<typeof linkSignature>): Access {
  const [access, setAccess] = useState<Access>(signature ? { state: 'checking' } : { state: 'open' });
  useEffect(() => {
    if (!signature) {
      setAccess({ state: 'open' });
      return;
    }
    let cancelled = false;
    setAccess({ state: 'checking' });
    api
      .post<{ valid: boolean; message: string }>(`/api/sessions/${encodeURIComponent(sessionId)}/validate-access`, signature)
      .then((answer) => {
        if (!cancelled) setAccess(answer.valid ? { state: 'open' } : { state: 'restricted', message: answer.message });
      })
      .catch((error: unknown) => {
        if (cancelled) return;
        // An unknown session is told by the page itself; anything else means the check could not run.
        if (error instanceof HttpError && error.status === 404) setAccess({ state: 'open' });
        else setAccess({ state: 'restricted', message: VALIDATION_NETWORK_MESSAGE });
      });
    return () => {
      cancelled = true;
    };
  }, [sessionId, signature]);
  return access;
}
