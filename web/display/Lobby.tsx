import { QrCode, Smartphone, Users } from 'lucide-react';
import { plural } from '../common/format';
import { JOIN_QR_SIZE_PX, QrCanvas } from './JoinSlide';
import { joinAddress } from './joinAddress';

/** The lobby's heading before Start (a join slide uses its own text). */
export const LOBBY_HEADING = 'Join the game!';

/** "12 players joined", "1 player joined" (DESIGN §17). */
export const joinedText = (joined: number) => `${plural(joined, 'player')} joined`;

interface Props {
  heading: string;
  /** The signed join link (the QR code carries it whole); null while it loads. */
  url: string | null;
  joined: number;
  /** Newest first. */
  recentNames: string[];
}

/**
 * The room's lobby (DESIGN §17): before Start and on a join slide the big screen is the way in.
 * The QR code is the hero; beside it the address to type, the count and the latest names, so
 * the room sees itself filling up.
 */
export function Lobby({ heading, url, joined, recentNames }: Props) {
  return (
    <section className="grid h-full w-full max-w-[88rem] grid-cols-[auto_1fr] items-center gap-16" aria-label="Join" data-testid="display-lobby">
      <div className="flex flex-col items-center gap-5">
        <div className="rounded-[2rem] bg-white p-4 shadow-2xl ring-8" style={{ '--tw-ring-color': 'var(--mq-primary)' } as React.CSSProperties}>
          {url ? <QrCanvas text={url} /> : <div style={{ width: JOIN_QR_SIZE_PX, height: JOIN_QR_SIZE_PX }} aria-hidden />}
        </div>
        <p className="flex items-center gap-3 text-3xl font-semibold">
          <QrCode className="size-8" style={{ color: 'var(--mq-primary)' }} aria-hidden />
          Point your camera at the QR code to join
        </p>
      </div>
      <div className="flex min-w-0 flex-col gap-8">
        <h2 className="mq-heading text-7xl leading-tight font-black" style={{ color: 'var(--mq-primary)' }}>
          {heading}
        </h2>
        {url && <JoinAddress url={url} />}
        <div className="flex flex-col gap-5" aria-live="polite">
          <p className="mq-heading flex items-center gap-4 text-5xl font-bold" data-testid="lobby-count">
            <Users className="size-12 shrink-0" style={{ color: 'var(--mq-secondary)' }} aria-hidden />
            {joinedText(joined)}
          </p>
          {recentNames.length > 0 ? (
            <ul className="flex flex-wrap gap-3" aria-label="Latest players" data-testid="lobby-names">
              {recentNames.map((name, index) => (
                <li
                  key={`${name}-${recentNames.length - index}`}
                  className={`mq-panel max-w-[24rem] truncate rounded-full px-6 py-2 text-3xl font-semibold ${index === 0 ? 'mq-pop' : ''}`}
                  style={index === 0 ? { boxShadow: 'inset 0 0 0 0.15rem var(--mq-primary)' } : undefined}
                >
                  {name}
                </li>
              ))}
            </ul>
          ) : (
            <p className="text-3xl opacity-80">Be the first to join!</p>
          )}
        </div>
      </div>
    </section>
  );
}

/** The address as text for anyone whose camera will not scan: the host stands out, then the page. */
function JoinAddress({ url }: { url: string }) {
  const { host, path } = joinAddress(url);
  return (
    <div className="mq-panel flex items-start gap-4 rounded-2xl px-6 py-4" data-testid="lobby-address">
      <Smartphone className="mt-1 size-8 shrink-0" style={{ color: 'var(--mq-secondary)' }} aria-hidden />
      <p className="min-w-0 text-2xl">
        <span className="block opacity-80">Or open</span>
        <span className="mq-mono block break-all">
          <strong className="text-3xl">{host}</strong>
          <span className="text-2xl opacity-90">{path}</span>
        </span>
      </p>
    </div>
  );
}
