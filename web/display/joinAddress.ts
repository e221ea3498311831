/**
 * The join link as a person can read it off the big screen and type it: the host and the
 * session's join page. The signature (`?t=…&sig=…`, DESIGN §6) stays in the QR code only: its 64
 * hex characters change every minute and nobody types them. With REQUIRE_SIGNED_JOIN on, a typed
 * address reaches the join form, whose refusal tells the player to scan the QR code.
 */
export function joinAddress(url: string): { host: string; path: string } {
  const parsed = new URL(url);
  return { host: parsed.host, path: parsed.pathname.replace(/\/+$/, '') };
}
