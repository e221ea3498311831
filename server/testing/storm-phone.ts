/**
 * A phone for the crash tests (ws/crash.test.ts, crash-rounds.ts): a real WebSocket client that
 * answers every open question once, comes back 0–3 s after its socket drops (retrying until the
 * server answers), and remembers what it was promised and told, so a test can check nothing was
 * taken back after a crash.
 */
import WebSocket from 'ws';

const random = (min: number, max: number) => min + Math.random() * (max - min);

export class StormPhone {
  /** The choice confirmed with `answer_accepted`, per question id. */
  readonly confirmed = new Map<string, number>();
  /** Its result per question id (`answer_result`, or in the reveal's state when it came back then). */
  readonly results = new Map<string, { pointsEarned: number; newScore: number }>();
  /** Broken promises and refusals, as text (a test expects none). */
  readonly faults: string[] = [];
  /** Question ids shown to this phone while open (each asked once: crash-rounds.ts turns auto-play off). */
  readonly shown = new Set<string>();
  /** Every `endsAt` this phone was shown, per question id (a crash must not move a deadline). */
  readonly deadlines = new Map<string, Set<number>>();
  /** What happened to this phone, for a failure message. */
  readonly trace: string[] = [];
  /** Set by the test at a kill: the next first state tells whether the phone missed its turn. */
  crashedDuring: string | null = null;
  /** The phase of the first state after the last crash ('' until then). */
  firstPhaseAfterCrash = '';
  connects = 0;
  private socket: WebSocket | null = null;
  private sentFor: string | null = null;
  private answerTimer: NodeJS.Timeout | null = null;
  private stopped = false;
  /** The next session_state is this socket's first: the phone's own view (answered, its choice). */
  private firstState = false;

  constructor(
    readonly index: number,
    private readonly url: () => string,
    /** How long it waits before answering a question it has just been shown (Infinity: not now). */
    private readonly answerDelayMs: () => number,
    private readonly choiceFor: (questionId: string) => number,
  ) {}

  connect(): void {
    if (this.stopped) return;
    const ws = new WebSocket(this.url(), { perMessageDeflate: false });
    this.socket = ws;
    ws.on('open', () => {
      this.connects++;
      this.firstState = true;
    });
    ws.on('message', (data) => this.onMessage(JSON.parse(data.toString())));
    ws.on('error', () => undefined); // 'close' follows
    ws.on('close', () => {
      if (this.answerTimer) clearTimeout(this.answerTimer);
      this.answerTimer = null;
      this.sentFor = null;
      if (this.socket !== ws || this.stopped) return;
      this.socket = null;
      setTimeout(() => this.connect(), random(0, 3_000));
    });
  }

  /** Leaves for good (the socket is dropped, no reconnect). */
  stop(): void {
    this.stopped = true;
    if (this.answerTimer) clearTimeout(this.answerTimer);
    this.socket?.terminate();
  }

  private onMessage(m: any): void {
    if (m.type !== 'timer_tick' && m.type !== 'leaderboard_update') {
      this.trace.push(`${Date.now() % 1_000_000} ${m.type} ${m.phase ?? ''} ${(m.question?.id ?? m.questionId ?? '').slice(0, 4)} ${m.answered ?? ''}`);
    }
    switch (m.type) {
      case 'session_state': {
        const id: string | undefined = m.question?.id;
        const first = this.firstState;
        this.firstState = false;
        if (first && this.crashedDuring !== null && this.firstPhaseAfterCrash === '' && id === this.crashedDuring) {
          this.firstPhaseAfterCrash = m.phase;
          if (m.phase === 'reveal' && !m.answered) this.faults.push(`phone ${this.index}: back in the reveal of ${id} without having answered (missed its turn)`);
        }
        if (id === undefined) return;
        const promised = this.confirmed.get(id);
        if (promised !== undefined && (!m.answered || m.selectedIndex !== promised)) {
          this.faults.push(`phone ${this.index}: confirmed ${promised} for ${id}, came back with answered=${m.answered} selectedIndex=${m.selectedIndex}`);
        }
        // Back during the reveal of a question that closed without it: the result comes in the state.
        if (m.phase === 'reveal' && m.answered && m.answerResult && !this.results.has(id)) {
          this.results.set(id, { pointsEarned: m.answerResult.pointsEarned, newScore: m.playerScore });
        }
        if (m.phase !== 'question') return;
        this.shown.add(id);
        if (!this.deadlines.has(id)) this.deadlines.set(id, new Set());
        this.deadlines.get(id)!.add(m.endsAt);
        if (!m.answered) this.scheduleAnswer(id);
        return;
      }
      case 'answer_accepted':
        this.confirmed.set(m.questionId, m.selectedIndex);
        return;
      case 'answer_result':
        if (this.results.has(m.questionId)) this.faults.push(`phone ${this.index}: two results for ${m.questionId}`);
        this.results.set(m.questionId, { pointsEarned: m.pointsEarned, newScore: m.newScore });
        return;
      case 'error':
        this.faults.push(`phone ${this.index}: error ${m.code} ${m.message}`);
        return;
    }
  }

  private scheduleAnswer(questionId: string): void {
    if (this.sentFor === questionId || this.answerTimer) return;
    const delayMs = this.answerDelayMs();
    if (!Number.isFinite(delayMs)) return; // holds back for now (answers when shown the question again)
    this.answerTimer = setTimeout(() => {
      this.answerTimer = null;
      if (this.socket?.readyState !== WebSocket.OPEN) return;
      this.sentFor = questionId;
      this.socket.send(JSON.stringify({ type: 'submit_answer', questionId, selectedIndex: this.choiceFor(questionId) }));
    }, delayMs);
  }
}
