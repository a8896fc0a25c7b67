import { describe, expect, test } from 'vitest'
import {
  BUBLE_ROLES,
  type BubleRole,
  CONTENT_KINDS,
  canModerate,
  type MemberActor,
  mayResolveReport,
  type ReportResolution,
  ROLE_DEFAULT_PERMISSIONS,
} from './permissions.ts'
import { noticeText } from './report-labels.ts'
import { CreateReportBody, ResolveReportsBody } from './reports.ts'

/**
 * The reports' rules (issue 24 §1, decision 101) as tables: Y allowed, n refused. Every actor holds
 * their role's defaults, as CONTRACT §4 gives them; 'bare moderator' holds moderate_content alone.
 */

const actor = (role: BubleRole, permissions: readonly string[] = ROLE_DEFAULT_PERMISSIONS[role]): MemberActor => ({
  userId: `${role}-id`,
  role,
  permissions,
})
const ACTORS: Record<string, MemberActor> = {
  owner: actor('owner'),
  admin: actor('admin'),
  moderator: actor('moderator'),
  member: actor('member'),
  'bare moderator': actor('moderator', ['moderate_content']),
  'admin without moderate_content': actor('admin', ['manage_buble', 'delete_others_content']),
}

describe('canModerate: who sees the Reports queue', () => {
  test.each([
    ['owner', true],
    ['admin', true],
    ['moderator', true],
    ['member', false],
    ['bare moderator', true],
    ['admin without moderate_content', false],
  ] as const)('%s → %s', (who, allowed) => {
    expect(canModerate(ACTORS[who]!)).toBe(allowed)
  })
})

describe('mayResolveReport on a member’s post, event and poll, and on muting its author', () => {
  const author = { userId: 'author-id', role: 'member' as BubleRole }
  // Columns: dismiss, delete a post, delete an event, delete a poll, mute the (member) author.
  const TABLE: [string, string][] = [
    ['owner', 'YYYYY'],
    ['admin', 'YYYYY'],
    ['moderator', 'YYYYY'],
    ['member', 'nnnnn'],
    ['bare moderator', 'YnnnY'],
    ['admin without moderate_content', 'nnnnn'],
  ]
  const COLUMNS: [ReportResolution, (typeof CONTENT_KINDS)[number]][] = [
    ['dismiss', 'post'],
    ['delete', 'post'],
    ['delete', 'event'],
    ['delete', 'poll'],
    ['mute', 'post'],
  ]
  test.each(TABLE)('%s → %s', (who, row) => {
    const got = COLUMNS.map(([action, kind]) =>
      mayResolveReport(ACTORS[who]!, action, { kind, authorId: author.userId }, author) ? 'Y' : 'n',
    ).join('')
    expect(got).toBe(row)
  })

  test('every kind can be deleted by the owner and dismissed by a bare moderator', () => {
    for (const kind of CONTENT_KINDS) {
      expect(mayResolveReport(ACTORS.owner!, 'delete', { kind, authorId: 'x' }, author)).toBe(true)
      expect(mayResolveReport(ACTORS['bare moderator']!, 'dismiss', { kind, authorId: 'x' }, author)).toBe(true)
    }
  })
})

describe('mute follows the role hierarchy (canMute): whom each role may mute from the queue', () => {
  // Columns: the author's role owner, admin, moderator, member; a former member (null).
  const TABLE: [string, string][] = [
    ['owner', 'nYYYn'],
    ['admin', 'nYYYn'],
    ['moderator', 'nnnYn'],
    ['member', 'nnnnn'],
  ]
  test.each(TABLE)('%s → %s', (who, row) => {
    const targets = [...BUBLE_ROLES.map((role) => ({ userId: `other-${role}`, role })), null]
    const got = targets
      .map((target) =>
        mayResolveReport(ACTORS[who]!, 'mute', { kind: 'post', authorId: target?.userId ?? 'gone' }, target)
          ? 'Y'
          : 'n',
      )
      .join('')
    expect(got).toBe(row)
  })
})

describe('the schemas and the notice', () => {
  test('a report trims its note, and an empty note is none', () => {
    const body = { target_type: 'post', target_id: '0190a0a0-0000-7000-8000-000000000000', reason: 'spam' }
    expect(CreateReportBody.parse({ ...body, note: '  hi ' }).note).toBe('hi')
    expect(CreateReportBody.parse({ ...body, note: '   ' }).note).toBeNull()
    expect(CreateReportBody.parse(body).note).toBeNull()
  })

  test('a mute needs a duration; dismiss and delete do not', () => {
    const body = { target_type: 'post', target_id: '0190a0a0-0000-7000-8000-000000000000' }
    expect(ResolveReportsBody.safeParse({ ...body, action: 'mute' }).success).toBe(false)
    expect(ResolveReportsBody.safeParse({ ...body, action: 'mute', duration: '1w' }).success).toBe(true)
    expect(ResolveReportsBody.safeParse({ ...body, action: 'dismiss' }).success).toBe(true)
  })

  test.each([
    ['delete', 'chat_message', null, 'A moderator removed your chat message after it was reported.'],
    ['mute', 'post', '1d', 'A moderator muted you for 1 day after your post was reported.'],
    ['mute', 'poll', 'indefinite', 'A moderator muted you until further notice after your poll was reported.'],
  ] as const)('the notice of %s on a %s (%s) names no reporter: %s', (action, type, duration, text) => {
    expect(noticeText(action, type, duration)).toBe(text)
  })
})
