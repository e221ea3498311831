/**
 * Creates the demo show once in a database's life (DESIGN §11). A setting records that the
 * decision was taken, so the demo never comes back after an operator deletes it, and a database
 * that already holds sessions or questions (an existing install upgrading) never gets one.
 */
import type { Store } from '../../storage/store.js';
import { newId, nowIso } from '../../storage/util.js';
import { DEMO_ITEMS, DEMO_QUESTIONS, DEMO_THEME, DEMO_TITLE } from './demo-content.js';

/** The settings key; its value says what happened ("created:<session id>" or "skipped"). */
export const DEMO_SETTING = 'demo_content';

export interface DemoOutcome {
  /** The session created on this start; undefined when none was. */
  createdSessionId?: string;
}

export async function ensureDemoContent(store: Store, enabled: boolean): Promise<DemoOutcome> {
  if (!enabled) return {};
  return store.db.transaction().execute(async (trx) => {
    // Claiming the key first makes two instances starting at once agree (the second waits, then sees it).
    const claim = await trx
      .insertInto('settings')
      .values({ key: DEMO_SETTING, value: 'pending' })
      .onConflict((oc) => oc.column('key').doNothing())
      .executeTakeFirst();
    if (Number(claim.numInsertedOrUpdatedRows ?? 0) === 0) return {};

    const sessions = await trx.selectFrom('sessions').select('id').limit(1).execute();
    const questions = await trx.selectFrom('questions').select('id').limit(1).execute();
    if (sessions.length > 0 || questions.length > 0) {
      await trx.updateTable('settings').set({ value: 'skipped' }).where('key', '=', DEMO_SETTING).execute();
      return {};
    }

    const sessionId = newId();
    await trx
      .insertInto('sessions')
      .values({
        id: sessionId,
        title: DEMO_TITLE,
        status: 'draft',
        created_at: nowIso(),
        auditorium_id: null,
        starts_at: null,
        auto_rotate: 1,
        media_items_per_transition: 1,
        return_message: null,
        current_question_index: 0,
        theme: JSON.stringify(DEMO_THEME),
        live_state: null,
      })
      .execute();
    const questionIds = DEMO_QUESTIONS.map(() => newId());
    await store.questions.insertMany(
      trx,
      DEMO_QUESTIONS.map((q) => ({ ...q, mediaId: null })),
      questionIds,
    );
    await trx
      .insertInto('session_items')
      .values(
        DEMO_ITEMS.map((item, orderIndex) => ({
          id: newId(),
          session_id: sessionId,
          order_index: orderIndex,
          item_type: item.kind,
          question_id: item.kind === 'question' ? questionIds[item.index]! : null,
          slide_type: item.kind === 'slide' ? item.slideType : null,
          slide_data: item.kind === 'slide' && item.text ? JSON.stringify({ text: item.text }) : null,
          media_item_count: null,
        })),
      )
      .execute();
    await trx.updateTable('settings').set({ value: `created:${sessionId}` }).where('key', '=', DEMO_SETTING).execute();
    return { createdSessionId: sessionId };
  });
}

/** The demo session if it still exists as an unplayed draft (the start-up message invites to Start it). */
export async function findDemoSession(store: Store, outcome: DemoOutcome): Promise<{ id: string; title: string; createdNow: boolean } | undefined> {
  const value = await store.settings.get(DEMO_SETTING);
  const id = value?.startsWith('created:') ? value.slice('created:'.length) : undefined;
  if (!id) return undefined;
  const session = await store.sessions.get(id);
  if (!session || session.status !== 'draft') return undefined;
  return { id, title: session.title, createdNow: outcome.createdSessionId === id };
}
