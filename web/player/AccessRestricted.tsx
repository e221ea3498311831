import { Lock } from 'lucide-react';

/** SPEC §2: shown when the server refuses access (no, bad or expired signed link). */
export function AccessRestricted({ message }: { message: string }) {
  return (
    <section className="flex flex-col items-center gap-5 py-10 text-center" aria-labelledby="access-restricted">
      <span className="flex size-20 items-center justify-center rounded-full bg-white/10" aria-hidden>
        <Lock className="size-10" style={{ color: 'var(--mq-warning)' }} />
      </span>
      <h1 id="access-restricted" className="mq-heading text-3xl font-bold">
        Access Restricted
      </h1>
      {message && <p className="text-lg break-words">{message}</p>}
      <p className="text-base opacity-80">To play trivia, please scan the QR code displayed on the theater screen.</p>
    </section>
  );
}
