export function QuestionsTab() { return <p className="text-muted">Coming soon</p>; }
