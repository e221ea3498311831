import type { PrizeDrawSettings } from '../../protocol/index';

/**
 * The prize draw's consent box on the join form (DESIGN §11): never ticked for the player; those
 * who leave it empty play just the same but cannot win. The server stores these same words.
 */
export function PrizeConsent({ draw, checked, onChange }: { draw: PrizeDrawSettings; checked: boolean; onChange: (checked: boolean) => void }) {
  return (
    <div className="flex items-start gap-3 rounded-xl border-2 border-white/20 bg-black/30 p-4" data-testid="prize-consent">
      <input
        id="prize-consent"
        type="checkbox"
        checked={checked}
        onChange={(event) => onChange(event.target.checked)}
        className="mt-1 size-6 shrink-0 accent-(--mq-primary)"
      />
      <label htmlFor="prize-consent" className="flex flex-col gap-1 text-base">
        {draw.prize && <span className="font-semibold">Prize: {draw.prize}</span>}
        <span className="whitespace-pre-line opacity-90">{draw.consentText}</span>
      </label>
    </div>
  );
}
