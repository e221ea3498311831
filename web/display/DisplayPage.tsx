// Placeholder: the large display screen is built by its own issue.
export default function DisplayPage() {
  return (
    <main className="flex min-h-screen items-center justify-center text-2xl text-muted">
      <p role="status">Loading session...</p>
    </main>
  );
}
