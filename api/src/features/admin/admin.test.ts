import { ADMIN_PAGE_SCHEMAS, AdminBubleDetail, AdminDashboard, AdminHealth, AdminUserDetail } from '@buble/shared/admin'
import { SESSION_REVOKED_MESSAGE } from '@buble/shared/auth'
import { eq } from 'drizzle-orm'
import { v7 as uuidv7 } from 'uuid'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { adminAudit, users } from '../../db/schema.ts'
import { backends } from '../../testing/databases.ts'
import { createHarness, type Harness, type TestResponse, uniqueEmail } from '../../testing/harness.ts'
import { pullAll } from '../../testing/sync.ts'

/**
 * The platform admin area (CONTRACT §3.4, §6, §7): who may call it, lists with search and pages,
 * CSV exports, and every admin write going through the feature services (devices see it) with an
 * audit row.
 */

const ANY_ID = '0190a000-0000-7000-8000-000000000000'

/** Every admin route, for the access table. */
const ROUTES: [method: string, path: string][] = [
  ['GET', '/api/admin/dashboard'],
  ['GET', '/api/admin/health'],
  ['GET', '/api/admin/audit'],
  ...['users', 'bubles', 'events', 'polls', 'posts', 'invites'].flatMap((tab): [string, string][] => [
    ['GET', `/api/admin/${tab}`],
    ['GET', `/api/admin/${tab}/export.csv`],
    ['DELETE', `/api/admin/${tab}/${ANY_ID}`],
  ]),
  ['GET', `/api/admin/users/${ANY_ID}`],
  ['GET', `/api/admin/bubles/${ANY_ID}`],
  ['POST', '/api/admin/users'],
  ['POST', '/api/admin/bubles'],
  ['PUT', `/api/admin/users/${ANY_ID}`],
  ['PUT', `/api/admin/events/${ANY_ID}`],
  ['PUT', `/api/admin/polls/${ANY_ID}`],
  ['POST', `/api/admin/users/${ANY_ID}/reset-password`],
  ['POST', `/api/admin/users/${ANY_ID}/send-reset-email`],
]

type Person = { token: string; id: string; email: string }

describe.each(backends())('admin on %s', (backend) => {
  let h: Harness
  let admin: Person
  let plain: Person

  beforeAll(async () => {
    h = await createHarness(backend, { BUBLE_RATE_LIMITS: 'off' })
    admin = await h.register({ name: 'Ada Admin' })
    await h.database.db.update(users).set({ role: 'admin' }).where(eq(users.id, admin.id))
    plain = await h.register({ name: 'Pat Plain' })
  })
  afterAll(() => h?.close())

  const as = (who: Person | string, method: string, path: string, body?: unknown) =>
    h.call(method, path, { token: typeof who === 'string' ? who : who.token, body })
  const expectStatus = async (res: TestResponse, status: number) => {
    const text = await res.text()
    expect(res.status, text).toBe(status)
    return text ? JSON.parse(text) : undefined
  }
  const ok = async (res: TestResponse) => expectStatus(res, 200)

  /** A buble of `owner` with one event, poll, post and invite, all named after `tag`. */
  async function content(owner: Person, tag: string) {
    const buble = await expectStatus(await as(owner, 'POST', '/api/bubles', { name: `Club ${tag}` }), 201)
    const event = await expectStatus(
      await as(owner, 'POST', `/api/bubles/${buble.id}/events`, {
        title: `Party ${tag}`,
        event_time: '2027-01-01T18:00:00Z',
      }),
      201,
    )
    const poll = await expectStatus(
      await as(owner, 'POST', `/api/bubles/${buble.id}/polls`, { question: `Which ${tag}?`, options: ['a', 'b'] }),
      201,
    )
    const post = await expectStatus(
      await as(owner, 'POST', `/api/wall/${buble.id}/posts`, { content: `Hello ${tag}` }),
      201,
    )
    const invite = await expectStatus(await as(owner, 'POST', `/api/bubles/${buble.id}/invites`, {}), 201)
    return { buble, event, poll, post, invite }
  }

  const auditOf = async (targetId: string) =>
    h.database.db.select().from(adminAudit).where(eq(adminAudit.targetId, targetId))

  test.each(ROUTES)('%s %s: 403 for a non-admin, 401 without a token', async (method, path) => {
    const body = method === 'GET' || method === 'DELETE' ? undefined : {}
    expect(await expectStatus(await as(plain, method, path, body), 403)).toEqual({
      code: 'FORBIDDEN',
      message: 'Access denied. Admin privileges required.',
    })
    expect((await h.call(method, path, { body })).status).toBe(401)
  })

  test('the dashboard counts and lists the five newest users and bubles', async () => {
    for (let i = 0; i < 5; i++) await h.register({ name: `Dash Filler ${i}` })
    const owner = await h.register({ name: 'Dash Owner' })
    await content(owner, 'dash')
    const dash = await ok(await as(admin, 'GET', '/api/admin/dashboard'))
    expect(dash.stats).toEqual({
      totalUsers: expect.any(Number),
      totalBubles: expect.any(Number),
      totalEvents: expect.any(Number),
      totalPolls: expect.any(Number),
      activeInvites: expect.any(Number),
    })
    expect(dash.stats.totalEvents).toBeGreaterThanOrEqual(1)
    expect(dash.recentUsers).toHaveLength(5)
    expect(dash.recentUsers[0]).toMatchObject({ id: owner.id, name: 'Dash Owner', bubles_count: 1, status: 'active' })
    expect(dash.recentBubles[0]).toMatchObject({ name: 'Club dash', member_count: 1, owner: { id: owner.id } })
    const health = await ok(await as(admin, 'GET', '/api/admin/health'))
    expect(health).toMatchObject({
      status: 'healthy',
      database: backend,
      metrics: { usersCount: dash.stats.totalUsers },
    })
    expect(health.metrics).toHaveProperty('expiredInvitesCount')
    expect(Date.parse(health.lastUpdated)).not.toBeNaN()
  })

  test('lists page newest first, cap the limit at 100 and refuse a bad page', async () => {
    const tag = `pager${Date.now()}`
    const made: string[] = []
    for (let i = 0; i < 7; i++) {
      made.unshift((await h.register({ name: `Pager ${i}`, email: uniqueEmail(tag) })).id)
      h.clock.advance(1000)
    }
    const first = await ok(await as(admin, 'GET', `/api/admin/users?search=${tag}&limit=3`))
    expect(first.pagination).toEqual({ page: 1, limit: 3, pages: 3, total: 7 })
    expect(first.users.map((u: { id: string }) => u.id)).toEqual(made.slice(0, 3))
    const second = await ok(await as(admin, 'GET', `/api/admin/users?search=${tag}&limit=3&page=2`))
    expect(second.users.map((u: { id: string }) => u.id)).toEqual(made.slice(3, 6))
    const third = await ok(await as(admin, 'GET', `/api/admin/users?search=${tag.toUpperCase()}&limit=3&page=3`))
    expect(third.users.map((u: { id: string }) => u.id)).toEqual(made.slice(6))
    const capped = await ok(await as(admin, 'GET', '/api/admin/users?limit=500'))
    expect(capped.pagination.limit).toBe(100)
    const plainDefault = await ok(await as(admin, 'GET', '/api/admin/users'))
    expect(plainDefault.pagination).toMatchObject({ page: 1, limit: 20 })
    for (const query of ['page=0', 'page=-1', 'page=abc', 'limit=0', 'limit=x', 'page=1.5'])
      expect((await expectStatus(await as(admin, 'GET', `/api/admin/users?${query}`), 400)).code).toBe(
        'VALIDATION_ERROR',
      )
    const none = await ok(await as(admin, 'GET', '/api/admin/users?search=nobody-has-this-name'))
    expect(none).toEqual({ users: [], pagination: { page: 1, limit: 20, pages: 1, total: 0 } })
  })

  test('search is a substring match where % and _ match only themselves', async () => {
    const a = await h.register({ name: 'Per 100% Cent', email: uniqueEmail('pct') })
    await h.register({ name: 'Per 1000 Cent', email: uniqueEmail('pct') })
    const found = await ok(await as(admin, 'GET', `/api/admin/users?search=${encodeURIComponent('100%')}`))
    expect(found.users.map((u: { id: string }) => u.id)).toEqual([a.id])
    const under = await ok(await as(admin, 'GET', `/api/admin/users?search=${encodeURIComponent('r_1')}`))
    expect(under.users).toEqual([])
  })

  test('each list searches its own fields and answers what its table shows', async () => {
    const owner = await h.register({ name: 'Lister Owner' })
    const tag = `zq${Date.now()}`
    const c = await content(owner, tag)
    const list = async (tab: string, search: string) =>
      (await ok(await as(admin, 'GET', `/api/admin/${tab}?search=${encodeURIComponent(search)}`)))[tab]
    expect(await list('bubles', `club ${tag}`)).toEqual([
      {
        id: c.buble.id,
        name: `Club ${tag}`,
        slug: c.buble.slug,
        owner_id: owner.id,
        owner: { id: owner.id, name: 'Lister Owner', email: owner.email },
        member_count: 1,
        created_at: c.buble.created_at,
      },
    ])
    const [event] = await list('events', `party ${tag}`)
    expect(event).toMatchObject({
      id: c.event.id,
      title: `Party ${tag}`,
      event_time: '2027-01-01T18:00:00.000Z',
      buble: { id: c.buble.id, name: `Club ${tag}` },
      creator: { id: owner.id, name: 'Lister Owner', email: owner.email },
      rsvps: { going: 0, maybe: 0, cant_go: 0 },
    })
    const [poll] = await list('polls', `which ${tag}`)
    expect(poll).toMatchObject({
      id: c.poll.id,
      question: `Which ${tag}?`,
      buble: { id: c.buble.id },
      creator: { id: owner.id },
      totalVotes: 0,
    })
    expect(poll.options.map((o: { option_text: string }) => o.option_text)).toEqual(['a', 'b'])
    const [post] = await list('posts', `hello ${tag}`)
    expect(post).toMatchObject({
      id: c.post.id,
      content: `Hello ${tag}`,
      type: 'text',
      buble_name: `Club ${tag}`,
      author: { id: owner.id, email: owner.email },
      commentsCount: 0,
    })
    expect(await list('posts', owner.email)).toHaveLength(1)
    const [invite] = await list('invites', c.invite.code.toLowerCase())
    expect(invite).toMatchObject({
      code: c.invite.code,
      buble: { id: c.buble.id },
      createdBy: { id: owner.id },
      usedBy: null,
      status: 'active',
      expires_at: c.invite.expires_at,
    })
    expect(await list('invites', `club ${tag}`)).toHaveLength(1)
    expect(await list('users', owner.email.toUpperCase())).toMatchObject([{ id: owner.id, bubles_count: 1 }])
    const detail = await ok(await as(admin, 'GET', `/api/admin/bubles/${c.buble.id}`))
    expect(detail).toMatchObject({
      id: c.buble.id,
      counts: { posts: 1, events: 1, polls: 1 },
      members: [{ user_id: owner.id, role: 'owner', user: { name: 'Lister Owner', email: owner.email } }],
    })
    const person = await ok(await as(admin, 'GET', `/api/admin/users/${owner.id}`))
    expect(person.bubles).toMatchObject([{ id: c.buble.id, role: 'owner' }])
    expect((await as(admin, 'GET', `/api/admin/bubles/${ANY_ID}`)).status).toBe(404)
    expect((await as(admin, 'GET', '/api/admin/bubles/not-a-uuid')).status).toBe(404)
  })

  test('CSV exports stream every match with a header, no id column, quoting and formula escaping', async () => {
    const tag = `csv${Date.now()}`
    const names = ['=1+1', '+x', '-x', '@x', '\tx', 'Quote "me", please']
    for (const name of names)
      await h.database.db.insert(users).values({
        id: uuidv7(),
        name,
        email: uniqueEmail(tag),
        createdAt: h.clock.now,
        updatedAt: h.clock.now,
      })
    const res = await as(admin, 'GET', `/api/admin/users/export.csv?search=${tag}`)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8')
    expect(res.headers.get('content-disposition')).toBe(
      `attachment; filename="users-${h.clock.now.toISOString().slice(0, 10)}.csv"`,
    )
    const text = await res.text()
    const lines = text.split('\r\n')
    expect(lines[0]).toBe('Name,Email,Role,Status,Email verified,Bubles,Created at')
    expect(lines.at(-1)).toBe('')
    expect(lines).toHaveLength(names.length + 2)
    expect(text).toContain(`'=1+1,`)
    expect(text).toContain(`'+x,`)
    expect(text).toContain(`'-x,`)
    expect(text).toContain(`'@x,`)
    expect(text).toContain(`'\tx,`)
    expect(text).toContain(`"Quote ""me"", please"`)
    expect(text).not.toMatch(/[0-9a-f]{8}-[0-9a-f]{4}-7/)

    const owner = await h.register({ name: 'Csv Owner' })
    const buble = await expectStatus(await as(owner, 'POST', '/api/bubles', { name: `Csv ${tag}` }), 201)
    await expectStatus(
      await as(owner, 'POST', `/api/wall/${buble.id}/posts`, { content: `=cmd ${tag}\nsecond line, "quoted"` }),
      201,
    )
    const posts = await (await as(admin, 'GET', `/api/admin/posts/export.csv?search=${tag}`)).text()
    expect(posts.split('\r\n')[0]).toBe('Content,Type,Author,Author email,Buble,Comments,Created at')
    expect(posts).toContain(`"'=cmd ${tag}\nsecond line, ""quoted"""`)
    expect((await as(admin, 'GET', '/api/admin/audit/export.csv')).status).toBe(404)
    for (const tab of ['bubles', 'events', 'polls', 'invites']) {
      const res = await as(admin, 'GET', `/api/admin/${tab}/export.csv`)
      expect(res.status).toBe(200)
      expect(res.headers.get('content-disposition')).toContain(`filename="${tab}-`)
      expect((await res.text()).split('\r\n')[0]).not.toMatch(/\bid\b/i)
    }
  })

  test('an export goes past one batch of rows', async () => {
    const tag = `bulk${Date.now()}`
    const rows = Array.from({ length: 1203 }, (_, i) => ({
      id: uuidv7(),
      name: `Bulk ${i}`,
      email: `${tag}-${i}@example.com`,
      // Some share a created_at: the keyset's id tiebreak must neither skip nor repeat them.
      createdAt: new Date(h.clock.now.getTime() - Math.floor(i / 3) * 1000),
      updatedAt: h.clock.now,
    }))
    await h.database.db.insert(users).values(rows)
    const text = await (await as(admin, 'GET', `/api/admin/users/export.csv?search=${tag}`)).text()
    const emails = text
      .split('\r\n')
      .slice(1, -1)
      .map((line) => line.split(',')[1])
    expect(emails).toHaveLength(1203)
    expect(new Set(emails).size).toBe(1203)
  })

  test('every answer parses with its shared schema, as the PWA reads it', async () => {
    const owner = await h.register({ name: 'Schema Owner' })
    const c = await content(owner, `schema${Date.now()}`)
    await ok(await as(owner, 'POST', `/api/events/${c.event.id}/rsvp`, { status: 'going' }))
    await ok(await as(admin, 'PUT', `/api/admin/polls/${c.poll.id}`, { question: 'Schema?' }))
    const schemas = ADMIN_PAGE_SCHEMAS
    for (const [tab, schema] of Object.entries(schemas)) {
      const page = schema.parse(await ok(await as(admin, 'GET', `/api/admin/${tab}?limit=100`)))
      expect((page as unknown as Record<string, unknown[]>)[tab]?.length, tab).toBeGreaterThan(0)
    }
    const events = ADMIN_PAGE_SCHEMAS.events.parse(
      await ok(await as(admin, 'GET', `/api/admin/events?search=${c.event.title}`)),
    )
    expect(events.events[0]?.rsvps).toEqual({ going: 1, maybe: 0, cant_go: 0 })
    AdminDashboard.parse(await ok(await as(admin, 'GET', '/api/admin/dashboard')))
    AdminHealth.parse(await ok(await as(admin, 'GET', '/api/admin/health')))
    AdminUserDetail.parse(await ok(await as(admin, 'GET', `/api/admin/users/${owner.id}`)))
    AdminBubleDetail.parse(await ok(await as(admin, 'GET', `/api/admin/bubles/${c.buble.id}`)))
  })

  test('an admin cannot delete or demote themselves', async () => {
    expect(await expectStatus(await as(admin, 'DELETE', `/api/admin/users/${admin.id}`), 409)).toEqual({
      code: 'CONFLICT',
      message: 'You cannot delete your own account',
    })
    expect(await expectStatus(await as(admin, 'PUT', `/api/admin/users/${admin.id}`, { role: 'user' }), 409)).toEqual({
      code: 'CONFLICT',
      message: 'You cannot remove your own admin role',
    })
    expect((await ok(await as(admin, 'GET', '/api/admin/dashboard'))).stats).toBeDefined()
  })

  test('a created user signs in at once with a 6-character password and is sent a verification mail', async () => {
    const email = uniqueEmail('made')
    const before = h.smtp.mails.length
    const created = await expectStatus(
      await as(admin, 'POST', '/api/admin/users', {
        name: 'Made User',
        email: `  ${email.toUpperCase()} `,
        password: 'abc123',
        role: 'user',
      }),
      201,
    )
    expect(created).toMatchObject({ name: 'Made User', email, role: 'user', status: 'active', email_verified: false })
    const login = await h.call('POST', '/api/auth/login', { body: { email, password: 'abc123' } })
    expect(login.status).toBe(200)
    const mail = await h.smtp.waitFor(email, { after: before })
    expect(mail.subject).toBe('Verify your email for Buble')
    expect(
      await expectStatus(
        await as(admin, 'POST', '/api/admin/users', { name: 'Again', email, password: 'abc123' }),
        409,
      ),
    ).toEqual({ code: 'CONFLICT', message: 'An account with this email already exists' })
    expect(
      (
        await expectStatus(
          await as(admin, 'POST', '/api/admin/users', { name: 'Short', email: uniqueEmail(), password: 'abc12' }),
          400,
        )
      ).message,
    ).toBe('Password must be at least 6 characters')
    expect(await auditOf(created.id)).toMatchObject([
      { action: 'user.create', adminId: admin.id, adminEmail: admin.email, targetType: 'user' },
    ])
    expect(JSON.stringify(await auditOf(created.id))).not.toContain('abc123')
  })

  test('editing a user changes name, address and role, and is audited', async () => {
    const u = await h.register({ name: 'Old Name' })
    const email = uniqueEmail('renamed')
    const edited = await ok(
      await as(admin, 'PUT', `/api/admin/users/${u.id}`, { name: 'New Name', email, role: 'admin' }),
    )
    expect(edited).toMatchObject({ id: u.id, name: 'New Name', email, role: 'admin', email_verified: false })
    expect(
      (await expectStatus(await as(admin, 'PUT', `/api/admin/users/${u.id}`, { email: admin.email }), 409)).code,
    ).toBe('CONFLICT')
    expect((await as(admin, 'PUT', `/api/admin/users/${ANY_ID}`, { name: 'Nobody' })).status).toBe(404)
    const [row] = await auditOf(u.id)
    expect(row).toMatchObject({ action: 'user.update', detail: { name: { from: 'Old Name', to: 'New Name' } } })
  })

  test('a buble made for ownerId is theirs, with the owner membership; otherwise the admin owns it', async () => {
    const owner = await h.register({ name: 'Given Owner' })
    const made = await expectStatus(
      await as(admin, 'POST', '/api/admin/bubles', { name: 'Made For You', ownerId: owner.id }),
      201,
    )
    expect(made).toMatchObject({
      name: 'Made For You',
      owner_id: owner.id,
      members: [{ user_id: owner.id, role: 'owner' }],
    })
    const theirs = await ok(await as(owner, 'GET', '/api/bubles'))
    expect(theirs.map((b: { id: string }) => b.id)).toContain(made.id)
    const mine = await expectStatus(await as(admin, 'POST', '/api/admin/bubles', { name: 'Admin Own' }), 201)
    expect(mine.owner_id).toBe(admin.id)
    expect((await as(admin, 'POST', '/api/admin/bubles', { name: 'XY', ownerId: ANY_ID })).status).toBe(404)
    expect((await as(admin, 'POST', '/api/admin/bubles', { name: '' })).status).toBe(400)
    expect(await auditOf(made.id)).toMatchObject([{ action: 'buble.create', detail: { ownerId: owner.id } }])
  })

  test('edits of events and polls reach members through REST and sync', async () => {
    const owner = await h.register({ name: 'Sync Owner' })
    const c = await content(owner, `sync${Date.now()}`)
    const { cursor } = await pullAll(h, owner.token)
    const event = await ok(
      await as(admin, 'PUT', `/api/admin/events/${c.event.id}`, { title: 'Renamed party', location: 'Harbour' }),
    )
    expect(event).toMatchObject({ id: c.event.id, title: 'Renamed party', location: 'Harbour' })
    const poll = await ok(await as(admin, 'PUT', `/api/admin/polls/${c.poll.id}`, { question: 'New question?' }))
    expect(poll).toMatchObject({ id: c.poll.id, question: 'New question?' })
    const events = await ok(await as(owner, 'GET', `/api/bubles/${c.buble.id}/events`))
    expect(events[0]).toMatchObject({ title: 'Renamed party', location: 'Harbour' })
    const polls = await ok(await as(owner, 'GET', `/api/bubles/${c.buble.id}/polls`))
    expect(polls[0]).toMatchObject({ question: 'New question?' })
    const { changes } = await pullAll(h, owner.token, cursor)
    expect(changes.find((ch) => ch.entity === 'event' && ch.id === c.event.id)?.data).toMatchObject({
      title: 'Renamed party',
    })
    expect(changes.find((ch) => ch.entity === 'poll' && ch.id === c.poll.id)?.data).toMatchObject({
      question: 'New question?',
    })
    expect((await as(admin, 'PUT', `/api/admin/events/${ANY_ID}`, { title: 'x' })).status).toBe(404)
    expect((await as(admin, 'PUT', `/api/admin/polls/${c.poll.id}`, { question: '' })).status).toBe(400)
    expect(await auditOf(c.event.id)).toMatchObject([{ action: 'event.update' }])
    expect(await auditOf(c.poll.id)).toMatchObject([{ action: 'poll.update' }])
  })

  test('deleting each kind removes it for members and devices, and is audited', async () => {
    const owner = await h.register({ name: 'Delete Owner' })
    const c = await content(owner, `del${Date.now()}`)
    const { cursor } = await pullAll(h, owner.token)
    const invites = await ok(await as(admin, 'GET', `/api/admin/invites?search=${c.invite.code}`))
    const inviteId = invites.invites[0].id
    for (const [tab, id] of [
      ['events', c.event.id],
      ['polls', c.poll.id],
      ['posts', c.post.id],
      ['invites', inviteId],
    ] as const) {
      expect((await as(admin, 'DELETE', `/api/admin/${tab}/${id}`)).status).toBe(204)
      expect((await as(admin, 'DELETE', `/api/admin/${tab}/${id}`)).status).toBe(404)
      const [row] = await auditOf(id)
      expect(row?.action).toBe(`${tab.slice(0, -1)}.delete`)
    }
    const { changes } = await pullAll(h, owner.token, cursor)
    for (const [entity, id] of [
      ['event', c.event.id],
      ['poll', c.poll.id],
      ['post', c.post.id],
    ])
      expect(changes).toContainEqual(expect.objectContaining({ entity, op: 'del', id }))
    expect(await ok(await as(owner, 'GET', `/api/bubles/${c.buble.id}/events`))).toEqual([])
    const accept = await as(plain, 'POST', `/api/bubles/invites/${c.invite.code}/accept`)
    expect(accept.status).toBe(410)
    expect((await as(admin, 'DELETE', `/api/admin/bubles/${c.buble.id}`)).status).toBe(204)
    expect((await as(owner, 'GET', `/api/bubles/${c.buble.id}`)).status).toBe(404)
    expect((await as(admin, 'DELETE', `/api/admin/bubles/${c.buble.id}`)).status).toBe(404)
    expect(await auditOf(c.buble.id)).toMatchObject([{ action: 'buble.delete', targetLabel: c.buble.name }])
  })

  test('deleting a user revokes their tokens, hands their bubles on and hides them from the list', async () => {
    const leaver = await h.register({ name: 'Leaving User' })
    const heir = await h.register({ name: 'Heir User' })
    const buble = await expectStatus(await as(leaver, 'POST', '/api/bubles', { name: 'Inherited' }), 201)
    const invite = await expectStatus(await as(leaver, 'POST', `/api/bubles/${buble.id}/invites`, {}), 201)
    await ok(await as(heir, 'POST', `/api/bubles/invites/${invite.code}/accept`))
    expect((await as(admin, 'DELETE', `/api/admin/users/${leaver.id}`)).status).toBe(204)
    expect((await as(leaver, 'GET', '/api/users/profile')).status).toBe(401)
    expect((await ok(await as(heir, 'GET', `/api/bubles/${buble.id}`))).owner_id).toBe(heir.id)
    const listed = await ok(await as(admin, 'GET', `/api/admin/users?search=${encodeURIComponent(leaver.email)}`))
    expect(listed.users).toEqual([])
    expect((await as(admin, 'GET', `/api/admin/users/${leaver.id}`)).status).toBe(404)
    expect((await as(admin, 'DELETE', `/api/admin/users/${leaver.id}`)).status).toBe(404)
    expect(await auditOf(leaver.id)).toMatchObject([
      { action: 'user.delete', targetLabel: `Leaving User <${leaver.email}>` },
    ])
  })

  test('reset-password and send-reset-email set a new password and revoke earlier tokens', async () => {
    const u = await h.register({ name: 'Forgetful User' })
    expect(
      (
        await expectStatus(
          await as(admin, 'POST', `/api/admin/users/${u.id}/reset-password`, { newPassword: '12345' }),
          400,
        )
      ).message,
    ).toBe('Password must be at least 6 characters')
    expect(
      await ok(await as(admin, 'POST', `/api/admin/users/${u.id}/reset-password`, { newPassword: 'simple' })),
    ).toEqual({ message: 'Password reset successfully' })
    // The old token's 401 says why, for the sign-in page to tell the user.
    expect(await expectStatus(await as(u, 'GET', '/api/users/profile'), 401)).toEqual({
      code: 'UNAUTHORIZED',
      message: SESSION_REVOKED_MESSAGE,
    })
    const login = await h.call('POST', '/api/auth/login', { body: { email: u.email, password: 'simple' } })
    expect(login.status).toBe(200)
    const fresh = (await login.json()).access_token as string

    const before = h.smtp.mails.length
    const sent = await ok(await as(admin, 'POST', `/api/admin/users/${u.id}/send-reset-email`))
    expect(sent.message).toBe('Password reset email sent')
    expect(sent.temporaryPassword).toMatch(/^(?=.*[A-Z])(?=.*[a-z])(?=.*[0-9]).{12,31}$/)
    expect((await as(fresh, 'GET', '/api/users/profile')).status).toBe(401)
    const mail = await h.smtp.waitFor(u.email, { after: before })
    expect(mail.text).toContain(sent.temporaryPassword)
    expect(
      (await h.call('POST', '/api/auth/login', { body: { email: u.email, password: sent.temporaryPassword } })).status,
    ).toBe(200)
    expect((await as(admin, 'POST', `/api/admin/users/${ANY_ID}/send-reset-email`)).status).toBe(404)
    const rows = await auditOf(u.id)
    expect(rows.map((r) => r.action).sort()).toEqual(['user.reset_password', 'user.send_reset_email'])
    expect(JSON.stringify(rows)).not.toContain(sent.temporaryPassword)
  })

  test('the audit log lists admin writes newest first, with search and pages', async () => {
    const u = await h.register({ name: 'Audited Person' })
    await ok(await as(admin, 'PUT', `/api/admin/users/${u.id}`, { name: 'Audited Renamed' }))
    const page = await ok(await as(admin, 'GET', '/api/admin/audit?search=audited%20renamed&limit=1'))
    expect(page.pagination).toEqual({ page: 1, limit: 1, pages: 1, total: 1 })
    expect(page.audit[0]).toMatchObject({
      admin_id: admin.id,
      admin_email: admin.email,
      action: 'user.update',
      target_type: 'user',
      target_id: u.id,
      target_label: `Audited Renamed <${u.email}>`,
    })
    const all = await ok(await as(admin, 'GET', '/api/admin/audit'))
    const times = all.audit.map((r: { created_at: string }) => r.created_at)
    expect([...times].sort().reverse()).toEqual(times)
  })
})
