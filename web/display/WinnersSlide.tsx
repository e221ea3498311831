import { Trophy } from 'lucide-react';

/** The prize draw's winners on the big screen (DESIGN §11): the prize and the names players gave, never emails. */
export function WinnersSlide({ prize, names }: { prize: string; names: string[] }) {
  return (
    <section className="flex h-full w-full flex-col items-center justify-center gap-8 text-center" aria-label="Prize draw winners" data-testid="winners-slide">
      <Trophy className="size-24" style={{ color: 'var(--mq-primary)' }} aria-hidden />
      <h2 className="mq-heading text-7xl font-black" style={{ color: 'var(--mq-primary)' }}>
        {names.length === 1 ? 'And the winner is…' : 'And the winners are…'}
      </h2>
      {prize && <p className="text-4xl opacity-90">{prize}</p>}
      <ul className="flex max-w-[70rem] flex-wrap justify-center gap-4" data-testid="winner-names">
        {names.map((name, index) => (
          <li key={`${index}-${name}`} className="mq-panel mq-heading rounded-2xl px-10 py-4 text-5xl font-bold">
            <bdi>{name}</bdi>
          </li>
        ))}
      </ul>
    </section>
  );
}
