export function SessionsTab() { return <p className="text-muted">Coming soon</p>; }
