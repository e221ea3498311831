export function PlayersTab() { return <p className="text-muted">Coming soon</p>; }
