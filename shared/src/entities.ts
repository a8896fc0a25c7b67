/** The kinds of synced rows (CONTRACT §5): what a pulled change names in `entity`. */
export const ENTITIES = [
  'buble',
  'member',
  'post',
  'comment',
  'event',
  'poll',
  'chat_message',
  'story',
  'unread',
] as const
export type Entity = (typeof ENTITIES)[number]
