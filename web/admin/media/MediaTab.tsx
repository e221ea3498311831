export function MediaTab() { return <p className="text-muted">Coming soon</p>; }
