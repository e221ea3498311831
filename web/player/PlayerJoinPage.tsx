// Placeholder: the player join form is built by its own issue.
export default function PlayerJoinPage() {
  return (
    <main className="flex min-h-screen flex-col items-center justify-center gap-3 p-6 text-center">
      <h1 className="text-2xl font-bold">Join the Game</h1>
      <p className="text-muted">Join the live trivia game! Enter your details to start playing.</p>
    </main>
  );
}
