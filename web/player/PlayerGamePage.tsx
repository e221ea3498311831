import { Redirect, useParams } from 'wouter';

// Placeholder: the player game screen is built by its own issue; until then it returns to the join form.
export default function PlayerGamePage() {
  const { sessionId } = useParams<{ sessionId: string }>();
  return <Redirect to={`/player/${sessionId}`} replace />;
}
