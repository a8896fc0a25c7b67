import { eq } from 'drizzle-orm'
import { v7 as uuidv7 } from 'uuid'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { users } from '../../db/schema.ts'
import type { ContentAdded } from '../../lib/content-added.ts'
import { backends } from '../../testing/databases.ts'
import { createHarness, type Harness, type TestResponse } from '../../testing/harness.ts'
import { mutation, pullAll, push } from '../../testing/sync.ts'
import { clubKit, type Person } from '../../testing/test-club.ts'

/**
 * Reports and the moderation queue (issue 24 §1, decision 101): any member reports any kind of
 * content, by REST and by sync; moderators see the open reports of an item grouped, and dismiss,
 * delete (through the content's own delete: a tombstone on every device) or mute the author;
 * every action is recorded; the author is told without the reporter's name; reporters never see
 * each other; platform admins list every buble's reports.
 */

const NOT_MODERATOR = { code: 'FORBIDDEN', message: 'Only moderators can handle reports in this Buble' }

describe.each(backends())('reports on %s', (backend) => {
  let h: Harness
  beforeAll(async () => {
    h = await createHarness(backend, { BUBLE_RATE_LIMITS: 'off' })
  })
  afterAll(() => h?.close())
  const { club } = clubKit(() => h)

  const call = (who: Person, method: string, path: string, body?: unknown) =>
    h.call(method, path, { token: who.token, body })
  const ok = async (res: TestResponse, status = 200) => {
    expect(res.status, await res.clone().text()).toBe(status)
    return res.json()
  }
  const post = async (who: Person, bubleId: string, content: string): Promise<string> =>
    (await ok(await call(who, 'POST', `/api/wall/${bubleId}/posts`, { content }), 201)).id
  const report = (who: Person, bubleId: string, body: Record<string, unknown>) =>
    call(who, 'POST', `/api/bubles/${bubleId}/reports`, body)
  const queue = async (who: Person, bubleId: string) => ok(await call(who, 'GET', `/api/bubles/${bubleId}/reports`))
  const resolve = (who: Person, bubleId: string, body: Record<string, unknown>) =>
    call(who, 'POST', `/api/bubles/${bubleId}/reports/resolve`, body)

  /** One piece of content of each kind, made by `author`. */
  async function oneOfEach(author: Person, bubleId: string): Promise<Record<string, string>> {
    const postId = await post(author, bubleId, 'A post to report')
    const comment = await ok(
      await call(author, 'POST', `/api/wall/posts/${postId}/comments`, { content: 'A comment' }),
      201,
    )
    const message = await ok(
      await call(author, 'POST', `/api/chat/${bubleId}/messages`, { content: 'A chat line' }),
      201,
    )
    const event = await ok(
      await call(author, 'POST', `/api/bubles/${bubleId}/events`, {
        title: 'A party',
        event_time: '2027-06-19T18:30:00Z',
      }),
      201,
    )
    const poll = await ok(
      await call(author, 'POST', `/api/bubles/${bubleId}/polls`, { question: 'Which day?', options: ['Mon', 'Tue'] }),
      201,
    )
    // A story needs an uploaded file: its row is written directly, as the upload would leave it.
    const storyId = uuidv7()
    await h.database.db.execute(
      `insert into stories (id, buble_id, author_id, media_url, media_type, duration_seconds, expires_at)
       values ('${storyId}', '${bubleId}', '${author.id}', '/api/uploads/secure/x.png', 'image', 5, now() + interval '1 day')` as never,
    )
    return {
      post: postId,
      comment: comment.id,
      chat_message: message.id,
      event: event.id,
      poll: poll.id,
      story: storyId,
    }
  }

  test('a member reports each kind of content, by REST and by sync; the same reporter again updates the report', async () => {
    const { owner, creator, member, bubleId } = await club()
    const items = await oneOfEach(creator, bubleId)
    for (const [type, id] of Object.entries(items)) {
      const made = await ok(await report(member, bubleId, { target_type: type, target_id: id, reason: 'spam' }), 201)
      expect(made).toMatchObject({ buble_id: bubleId, target_type: type, target_id: id, reason: 'spam', note: null })
    }
    // Again, by sync, with a note: still one open report of the post, with the new reason.
    const [result] = await push(h, member.token, [
      mutation('report.create', {
        id: uuidv7(),
        buble_id: bubleId,
        target_type: 'post',
        target_id: items.post,
        reason: 'other',
        note: ' Too loud ',
      }),
    ])
    expect(result).toMatchObject({
      status: 'applied',
      data: { target_id: items.post, reason: 'other', note: 'Too loud' },
    })
    const mine = await ok(await call(member, 'GET', `/api/bubles/${bubleId}/reports/mine`))
    expect(mine.reports).toHaveLength(6)
    const { groups } = await queue(owner, bubleId)
    expect(groups.map((g: { target_type: string }) => g.target_type).sort()).toEqual(Object.keys(items).sort())
    const postGroup = groups.find((g: { target_id: string }) => g.target_id === items.post)
    expect(postGroup).toMatchObject({
      excerpt: 'A post to report',
      exists: true,
      author: { id: creator.id, name: creator.name },
      reasons: [{ reason: 'other', count: 1 }],
      reports: [{ reporter: { id: member.id, name: member.name }, reason: 'other', note: 'Too loud' }],
    })
  })

  test('a report re-sent with its client id is the same report (200, not a second one)', async () => {
    const { creator, member, bubleId } = await club()
    const target = await post(creator, bubleId, 'Twice sent')
    const body = { id: uuidv7(), target_type: 'post', target_id: target, reason: 'spam' }
    const first = await ok(await report(member, bubleId, body), 201)
    const again = await ok(await report(member, bubleId, body), 200)
    expect(again.id).toBe(first.id)
  })

  test('own content cannot be reported; a non-member gets 404; content of another buble is 404', async () => {
    const { creator, member, outsider, bubleId } = await club()
    const other = await club()
    const target = await post(creator, bubleId, 'Mine')
    const elsewhere = await post(other.creator, other.bubleId, 'Elsewhere')
    const own = await report(creator, bubleId, { target_type: 'post', target_id: target, reason: 'spam' })
    expect({ status: own.status, body: await own.json() }).toEqual({
      status: 403,
      body: { code: 'FORBIDDEN', message: 'You cannot report your own content' },
    })
    const outside = await report(outsider, bubleId, { target_type: 'post', target_id: target, reason: 'spam' })
    expect(outside.status).toBe(404)
    const crossed = await report(member, bubleId, { target_type: 'post', target_id: elsewhere, reason: 'spam' })
    expect({ status: crossed.status, body: await crossed.json() }).toEqual({
      status: 404,
      body: { code: 'NOT_FOUND', message: 'Content not found' },
    })
    const [synced] = await push(h, outsider.token, [
      mutation('report.create', {
        id: uuidv7(),
        buble_id: bubleId,
        target_type: 'post',
        target_id: target,
        reason: 'spam',
      }),
    ])
    expect(synced).toMatchObject({ status: 'rejected', code: 'NOT_FOUND' })
    for (const path of ['reports', 'reports/history', 'reports/mine', 'moderation/notices'])
      expect((await call(outsider, 'GET', `/api/bubles/${bubleId}/${path}`)).status).toBe(404)
  })

  test('bad input is a 400 naming the field, by REST and by sync', async () => {
    const { creator, member, owner, bubleId } = await club()
    const target = await post(creator, bubleId, 'Bad input')
    const cases: [Record<string, unknown>, string, string][] = [
      [
        { target_type: 'photo', target_id: target, reason: 'spam' },
        'target_type',
        'target_type must be one of post, comment, chat_message, story, event, poll',
      ],
      [{ target_type: 'post', target_id: 'nope', reason: 'spam' }, 'target_id', 'target_id must be a UUID'],
      [
        { target_type: 'post', target_id: target, reason: 'boring' },
        'reason',
        'reason must be one of spam, harassment, inappropriate, other',
      ],
      [
        { target_type: 'post', target_id: target, reason: 'other', note: 'x'.repeat(1001) },
        'note',
        'note may be at most 1000 characters',
      ],
    ]
    for (const [body, field, message] of cases) {
      const res = await report(member, bubleId, body)
      expect(res.status).toBe(400)
      expect((await res.json()).issues).toContainEqual(expect.objectContaining({ path: field, message }))
    }
    const noDuration = await resolve(owner, bubleId, { target_type: 'post', target_id: target, action: 'mute' })
    expect(noDuration.status).toBe(400)
    expect((await noDuration.json()).issues).toContainEqual(
      expect.objectContaining({ path: 'duration', message: 'duration is required to mute' }),
    )
    const badAction = await resolve(owner, bubleId, { target_type: 'post', target_id: target, action: 'ban' })
    expect((await badAction.json()).issues).toContainEqual(
      expect.objectContaining({ path: 'action', message: 'action must be one of dismiss, delete, mute' }),
    )
    const [synced] = await push(h, member.token, [
      mutation('report.create', {
        id: uuidv7(),
        buble_id: bubleId,
        target_type: 'post',
        target_id: target,
        reason: 'boring',
      }),
    ])
    expect(synced).toMatchObject({ status: 'rejected', code: 'VALIDATION_ERROR' })
  })

  test('several reports of one item are one group, with the reasons counted; reporters never see each other', async () => {
    const { owner, moderator, creator, member, manager, revoked, bubleId } = await club()
    const target = await post(creator, bubleId, 'Grouped')
    await ok(await report(member, bubleId, { target_type: 'post', target_id: target, reason: 'spam' }), 201)
    h.clock.advance(1000)
    await ok(
      await report(manager, bubleId, { target_type: 'post', target_id: target, reason: 'spam', note: 'ads' }),
      201,
    )
    h.clock.advance(1000)
    await ok(await report(revoked, bubleId, { target_type: 'post', target_id: target, reason: 'harassment' }), 201)
    for (const mod of [owner, moderator]) {
      const { groups } = await queue(mod, bubleId)
      expect(groups).toHaveLength(1)
      expect(groups[0].reasons).toEqual([
        { reason: 'spam', count: 2 },
        { reason: 'harassment', count: 1 },
      ])
      expect(groups[0].reports.map((r: { reporter: { name: string } }) => r.reporter.name)).toEqual([
        member.name,
        manager.name,
        revoked.name,
      ])
    }
    // A reporter sees only their own report, and neither the queue nor the history.
    for (const reporter of [member, manager]) {
      const res = await call(reporter, 'GET', `/api/bubles/${bubleId}/reports`)
      expect({ status: res.status, body: await res.json() }).toEqual({ status: 403, body: NOT_MODERATOR })
      expect((await call(reporter, 'GET', `/api/bubles/${bubleId}/reports/history`)).status).toBe(403)
      const { reports } = await ok(await call(reporter, 'GET', `/api/bubles/${bubleId}/reports/mine`))
      expect(reports).toHaveLength(1)
      expect(JSON.stringify(reports)).not.toContain(reporter === member ? manager.id : member.id)
    }
  })

  test("the Reports counter counts new reports for moderators only, and a device's pull brings it", async () => {
    const { owner, moderator, creator, member, bubleId } = await club()
    const counter = async (who: Person) =>
      (await ok(await call(who, 'GET', `/api/unread/buble/${bubleId}`))).find(
        (c: { contentType: string }) => c.contentType === 'reports',
      ).unreadCount
    const before = (await pullAll(h, moderator.token)).cursor
    const target = await post(creator, bubleId, 'Counted')
    await ok(await report(member, bubleId, { target_type: 'post', target_id: target, reason: 'spam' }), 201)
    expect([await counter(owner), await counter(moderator), await counter(member), await counter(creator)]).toEqual([
      1, 1, 0, 0,
    ])
    const { changes } = await pullAll(h, moderator.token, before)
    expect(changes).toContainEqual(
      expect.objectContaining({
        entity: 'unread',
        id: `${bubleId}:reports`,
        data: expect.objectContaining({ unreadCount: 1 }),
      }),
    )
    expect(
      (await call(moderator, 'POST', `/api/unread/buble/${bubleId}/read`, { contentType: 'reports' })).status,
    ).toBe(204)
    expect([await counter(owner), await counter(moderator)]).toEqual([1, 0])
  })

  test('dismiss closes the group and is recorded; the author is not told', async () => {
    const { owner, creator, member, bubleId } = await club()
    const target = await post(creator, bubleId, 'Harmless')
    await ok(await report(member, bubleId, { target_type: 'post', target_id: target, reason: 'spam' }), 201)
    const told: ContentAdded[] = []
    const stop = h.features.contentAdded.listen((added) => told.push(added))
    const action = await ok(
      await resolve(owner, bubleId, { target_type: 'post', target_id: target, action: 'dismiss' }),
    )
    stop()
    expect(action).toMatchObject({
      action: 'dismiss',
      reports_closed: 1,
      moderator: { id: owner.id },
      author: { id: creator.id },
    })
    expect((await queue(owner, bubleId)).groups).toEqual([])
    expect(told.filter((t) => t.contentType === 'reports')).toEqual([])
    const again = await resolve(owner, bubleId, { target_type: 'post', target_id: target, action: 'dismiss' })
    expect(again.status).toBe(404)
    // The post stays, and may be reported anew.
    await ok(await report(member, bubleId, { target_type: 'post', target_id: target, reason: 'other' }), 201)
    const { actions } = await ok(await call(owner, 'GET', `/api/bubles/${bubleId}/reports/history`))
    expect(actions).toMatchObject([{ action: 'dismiss', excerpt: 'Harmless', reports_closed: 1 }])
  })

  test('delete removes the content through its own delete (a tombstone on devices), records it, and tells the author without the reporter', async () => {
    const { owner, moderator, creator, member, manager, bubleId } = await club()
    const items = await oneOfEach(creator, bubleId)
    for (const [type, id] of Object.entries(items)) {
      await ok(
        await report(member, bubleId, { target_type: type, target_id: id, reason: 'inappropriate', note: 'by member' }),
        201,
      )
      await ok(await report(manager, bubleId, { target_type: type, target_id: id, reason: 'spam' }), 201)
    }
    const cursor = (await pullAll(h, creator.token)).cursor
    const told: ContentAdded[] = []
    const stop = h.features.contentAdded.listen((added) => told.push(added))
    // Through sync for the post, by REST for the rest.
    const [synced] = await push(h, moderator.token, [
      mutation('report.resolve', { buble_id: bubleId, target_type: 'post', target_id: items.post, action: 'delete' }),
    ])
    expect(synced).toMatchObject({ status: 'applied', data: { action: 'delete', reports_closed: 2 } })
    for (const [type, id] of Object.entries(items))
      if (type !== 'post' && type !== 'comment')
        await ok(await resolve(owner, bubleId, { target_type: type, target_id: id, action: 'delete' }))
    // The comment went with its post: its reports still close, with nothing left to delete.
    await ok(await resolve(owner, bubleId, { target_type: 'comment', target_id: items.comment, action: 'delete' }))
    stop()
    const { changes } = await pullAll(h, creator.token, cursor)
    const gone = changes.filter((c) => c.op === 'del').map((c) => `${c.entity}:${c.id}`)
    for (const [type, id] of Object.entries(items)) expect(gone).toContain(`${type}:${id}`)
    expect((await queue(owner, bubleId)).groups).toEqual([])
    const notices = told.filter((t) => t.contentType === 'reports')
    expect(notices.map((n) => n.recipients)).toEqual(Object.keys(items).map(() => [creator.id]))
    expect(notices[0]!.body).toBe('A moderator removed your post after it was reported.')
    const { notices: inApp } = await ok(await call(creator, 'GET', `/api/bubles/${bubleId}/moderation/notices`))
    expect(inApp).toHaveLength(6)
    expect(inApp).toContainEqual(
      expect.objectContaining({
        action: 'delete',
        target_type: 'event',
        text: 'A moderator removed your event after it was reported.',
      }),
    )
    for (const text of [JSON.stringify(notices), JSON.stringify(inApp)])
      for (const secret of [member.id, member.name, manager.id, manager.name, 'by member'])
        expect(text).not.toContain(secret)
    // Others are not told, and see no notices of the author's.
    expect((await ok(await call(member, 'GET', `/api/bubles/${bubleId}/moderation/notices`))).notices).toEqual([])
    const { actions } = await ok(await call(moderator, 'GET', `/api/bubles/${bubleId}/reports/history`))
    expect(actions).toHaveLength(6)
    expect(
      actions.every((a: { action: string; reports_closed: number }) => a.action === 'delete' && a.reports_closed === 2),
    ).toBe(true)
  })

  test('who may act: a plain member 403, a non-member 404, a moderator without delete_others_content may not delete', async () => {
    const { owner, moderator, creator, member, outsider, bubleId } = await club()
    const target = await post(creator, bubleId, 'Judged')
    await ok(await report(member, bubleId, { target_type: 'post', target_id: target, reason: 'spam' }), 201)
    const plain = await resolve(member, bubleId, { target_type: 'post', target_id: target, action: 'dismiss' })
    expect({ status: plain.status, body: await plain.json() }).toEqual({ status: 403, body: NOT_MODERATOR })
    expect(
      (await resolve(outsider, bubleId, { target_type: 'post', target_id: target, action: 'dismiss' })).status,
    ).toBe(404)
    await ok(
      await call(owner, 'PUT', `/api/bubles/${bubleId}/members/role`, {
        userId: moderator.id,
        role: 'moderator',
        customPermissions: ['moderate_content'],
      }),
    )
    const refused = await resolve(moderator, bubleId, { target_type: 'post', target_id: target, action: 'delete' })
    expect({ status: refused.status, body: await refused.json() }).toEqual({
      status: 403,
      body: { code: 'FORBIDDEN', message: 'You may not delete this' },
    })
    // Refused, the reports stay open and the post stays.
    expect((await queue(owner, bubleId)).groups).toHaveLength(1)
    expect((await call(owner, 'GET', `/api/wall/${bubleId}/posts`)).status).toBe(200)
  })

  test('mute the author: muted until the end, recorded, told; the hierarchy holds (a moderator cannot mute an admin)', async () => {
    const { owner, moderator, admin, creator, member, bubleId } = await club()
    const target = await post(creator, bubleId, 'Loud')
    const adminPost = await post(admin, bubleId, 'Admin says')
    await ok(await report(member, bubleId, { target_type: 'post', target_id: target, reason: 'harassment' }), 201)
    await ok(await report(member, bubleId, { target_type: 'post', target_id: adminPost, reason: 'spam' }), 201)
    const told: ContentAdded[] = []
    const stop = h.features.contentAdded.listen((added) => told.push(added))
    const action = await ok(
      await resolve(moderator, bubleId, { target_type: 'post', target_id: target, action: 'mute', duration: '1h' }),
    )
    stop()
    expect(action).toMatchObject({ action: 'mute', duration: '1h', reports_closed: 1 })
    const [row] = await h.database.db
      .execute(
        `select muted_until from memberships where buble_id = '${bubleId}' and user_id = '${creator.id}'` as never,
      )
      .then((r) => (r as unknown as { rows: { muted_until: Date | string }[] }).rows)
    expect(new Date(row!.muted_until).getTime()).toBe(h.clock.now.getTime() + 3600_000)
    // Muted, the author cannot post (the muting feature's guard) but may still report.
    const refusedPost = await call(creator, 'POST', `/api/wall/${bubleId}/posts`, { content: 'Still here' })
    expect(refusedPost.status).toBe(403)
    expect((await refusedPost.json()).message).toMatch(/^You are muted in this buble until /)
    const memberPost = await post(member, bubleId, 'By the reporter')
    await ok(await report(creator, bubleId, { target_type: 'post', target_id: memberPost, reason: 'other' }), 201)
    expect(told.find((t) => t.contentType === 'reports')).toMatchObject({
      recipients: [creator.id],
      body: 'A moderator muted you for 1 hour after your post was reported.',
    })
    const refused = await resolve(moderator, bubleId, {
      target_type: 'post',
      target_id: adminPost,
      action: 'mute',
      duration: '1d',
    })
    expect({ status: refused.status, body: await refused.json() }).toEqual({
      status: 403,
      body: { code: 'FORBIDDEN', message: 'You may not mute this member' },
    })
    // The owner may.
    await ok(
      await resolve(owner, bubleId, {
        target_type: 'post',
        target_id: adminPost,
        action: 'mute',
        duration: 'indefinite',
      }),
    )
    const { notices } = await ok(await call(admin, 'GET', `/api/bubles/${bubleId}/moderation/notices`))
    expect(notices).toMatchObject([
      {
        action: 'mute',
        duration: 'indefinite',
        text: 'A moderator muted you until further notice after your post was reported.',
      },
    ])
  })

  test("platform admins list every buble's open reports, paged; others get 403", async () => {
    const admin = await h.register({ name: 'Platform Admin' })
    await h.database.db.update(users).set({ role: 'admin' }).where(eq(users.id, admin.id))
    const a = await club()
    const b = await club()
    const pa = await post(a.creator, a.bubleId, 'In A')
    const pb = await post(b.creator, b.bubleId, 'In B')
    await ok(await report(a.member, a.bubleId, { target_type: 'post', target_id: pa, reason: 'spam' }), 201)
    h.clock.advance(1000)
    await ok(await report(b.member, b.bubleId, { target_type: 'post', target_id: pb, reason: 'other' }), 201)
    // The newest reported first: B's on page 1 of a page size of 1, A's on page 2.
    const first = await ok(await h.call('GET', '/api/admin/reports?limit=1', { token: admin.token }))
    expect(first.reports).toMatchObject([
      { buble_name: b.bubleName, target_id: pb, reasons: [{ reason: 'other', count: 1 }] },
    ])
    expect(first.pagination).toMatchObject({ page: 1, limit: 1 })
    expect(first.pagination.total).toBeGreaterThanOrEqual(2)
    const second = await ok(await h.call('GET', '/api/admin/reports?limit=1&page=2', { token: admin.token }))
    expect(second.reports).toMatchObject([{ buble_name: a.bubleName, target_id: pa }])
    const bad = await h.call('GET', '/api/admin/reports?page=0', { token: admin.token })
    expect(bad.status).toBe(400)
    expect((await h.call('GET', '/api/admin/reports', { token: a.owner.token })).status).toBe(403)
  })
})
