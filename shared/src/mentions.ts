/**
 * Mentions (issue 23 §1): how a post, comment or chat message names a member. The text stores the
 * member's id as a token, `<@uuid>`, never their name, so a mention follows the member through a
 * change of name and is shown with the name they have now. Whoever renders knows the buble's members;
 * a token naming anyone else (a former member, a made-up id) shows as plain text and does nothing.
 */

/** One mention token: `<@` + a UUID (any case) + `>`. The `g` flag is for matchAll/replace only. */
const TOKEN = /<@([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})>/g

/** What an unknown mention shows: plain text, naming nobody. */
export const UNKNOWN_MENTION = '@someone'

/** The token a mention of `userId` is stored as. */
export const mentionToken = (userId: string): string => `<@${userId.toLowerCase()}>`

/** The ids a text mentions, lower-case, each once, in order of first appearance. */
export function mentionedIds(text: string): string[] {
  const ids = new Set<string>()
  for (const match of text.matchAll(TOKEN)) ids.add(match[1]!.toLowerCase())
  return [...ids]
}

/** True when the text holds at least one mention token. */
export const hasMentions = (text: string): boolean => text.search(TOKEN) !== -1

/** A run of a text: plain, or a mention of a member (their current name). */
export interface MentionPart {
  /** Where the part starts in the stored text: a stable key. */
  at: number
  text: string
  /** Set when the part is a mention of a member: their id. */
  userId?: string
}

/** Who a buble's members are: an id's current name, or undefined for anyone not a member. */
export type MemberNames = (userId: string) => string | undefined

/** Builds a `MemberNames` from a list of members (`{ id, name }`). */
export const memberNames = (members: readonly { id: string; name: string }[]): MemberNames => {
  const byId = new Map(members.map((m) => [m.id.toLowerCase(), m.name]))
  return (userId) => byId.get(userId.toLowerCase())
}

/** Splits a stored text into plain runs and mentions; a token of a non-member is plain `@someone`. */
export function splitMentions(text: string, nameOf: MemberNames): MentionPart[] {
  const parts: MentionPart[] = []
  let plain = ''
  let plainAt = 0
  let last = 0
  const flush = (until: number) => {
    if (plain.length > 0) parts.push({ at: plainAt, text: plain })
    plain = ''
    plainAt = until
  }
  for (const match of text.matchAll(TOKEN)) {
    plain += text.slice(last, match.index)
    const id = match[1]!.toLowerCase()
    const name = nameOf(id)
    if (name === undefined) plain += UNKNOWN_MENTION
    else {
      flush(match.index)
      parts.push({ at: match.index, text: `@${name}`, userId: id })
      plainAt = match.index + match[0].length
    }
    last = match.index + match[0].length
  }
  plain += text.slice(last)
  flush(text.length)
  return parts
}

/** The text as a person reads it: each member's token as `@Name`, anyone else's as `@someone`. */
export const renderMentions = (text: string, nameOf: MemberNames): string =>
  text.replace(TOKEN, (_token, id: string) => {
    const name = nameOf(id.toLowerCase())
    return name === undefined ? UNKNOWN_MENTION : `@${name}`
  })

/**
 * The stored form of a text edited as people read it: each `@Name` of the `known` mentions (the
 * text's own and those picked while editing) becomes that member's token again. Longer names are
 * matched first ("@Ana Maria" before "@Ana"), and a name must end where a word does. Where two
 * known members share a name, the first listed wins.
 */
export function storeMentions(readable: string, known: readonly { id: string; name: string }[]): string {
  const names = [...new Map(known.filter((m) => m.name.length > 0).map((m) => [m.name, m.id])).entries()].sort(
    (a, b) => b[0].length - a[0].length,
  )
  if (names.length === 0) return readable
  const escaped = names.map(([name]) => name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
  const pattern = new RegExp(`@(${escaped.join('|')})(?![\\p{L}\\p{N}_])`, 'gu')
  const byName = new Map(names)
  return readable.replace(pattern, (_whole, name: string) => mentionToken(byName.get(name)!))
}

/**
 * The `@query` being typed at `caret`, if any: an `@` at the start or after a space or an opening
 * bracket, then up to 30 characters without a line break or a second `@`. Null when the caret is not
 * in one.
 */
export function mentionQueryAt(text: string, caret: number): { start: number; query: string } | null {
  const before = text.slice(0, caret)
  const match = /(^|[\s([{"'])@([^\s@]{0,30}(?: [^\s@]{1,30})?)$/u.exec(before)
  if (!match) return null
  const start = match.index + match[1]!.length
  return { start, query: match[2]! }
}

/**
 * The members whose name matches a query (case- and accent-blind, at a word start), those whose name
 * starts with it first, at most `limit`.
 */
export function filterMembers<M extends { name: string }>(members: readonly M[], query: string, limit = 6): M[] {
  const fold = (s: string) => s.normalize('NFD').replace(/\p{M}/gu, '').toLocaleLowerCase()
  const q = fold(query.trim())
  if (q === '') return members.slice(0, limit)
  const first: M[] = []
  const then: M[] = []
  for (const member of members) {
    const name = fold(member.name)
    if (name.startsWith(q)) first.push(member)
    else if (name.split(/\s+/).some((word) => word.startsWith(q))) then.push(member)
  }
  return [...first, ...then].slice(0, limit)
}

/** The title of a mentioned member's push: "Ana mentioned you in Book club". */
export const mentionPushTitle = (actorName: string, bubleName: string): string =>
  `${actorName} mentioned you in ${bubleName}`
