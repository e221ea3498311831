// JSON shapes of DESIGN §2, as the admin receives them: shared with the server through protocol/.
export type {
  Auditorium,
  ItemType,
  Media,
  Player,
  Question,
  Session,
  Showtime,
  SessionItem,
  SessionMediaLink,
  SessionQuestionLink,
  SessionStatus,
  SlideType,
} from '../../protocol/index';
