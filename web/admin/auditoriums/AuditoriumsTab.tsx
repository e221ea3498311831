export function AuditoriumsTab() { return <p className="text-muted">Coming soon</p>; }
