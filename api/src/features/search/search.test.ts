import { mentionToken } from '@buble/shared/mentions'
import type { SearchHit, SearchPage } from '@buble/shared/search'
import { beforeAll, describe, expect, test } from 'vitest'
import { backends } from '../../testing/databases.ts'
import { type Club, clubSuite, type Person } from '../../testing/test-club.ts'

/**
 * Search in a buble (issue 23 §2, decision 95): every kind found with where it is, stems through the
 * english configuration and words as written through simple, members only, deleted content gone,
 * pages newest first by a cursor, snippets as text with offsets (no markup from content), bad input 400.
 */

describe.each(backends())('search on %s', (backend) => {
  const { h, call, club, expectStatus, expectNotFound } = clubSuite(backend)

  const search = async (who: Person, bubleId: string, query: string): Promise<SearchPage> =>
    expectStatus(await call(who, 'GET', `/api/bubles/${bubleId}/search?${query}`), 200)
  const q = (who: Person, bubleId: string, text: string) => search(who, bubleId, `q=${encodeURIComponent(text)}`)
  const post = async (who: Person, bubleId: string, content: string) => {
    h().clock.advance(1000)
    return expectStatus(await call(who, 'POST', `/api/wall/${bubleId}/posts`, { content }), 201)
  }
  const marked = (hit: SearchHit) => hit.snippet.marks.map(([s, e]) => hit.snippet.text.slice(s, e))

  let c: Club
  beforeAll(async () => {
    c = await club()
  })

  test('finds posts, comments, chat, events and polls, each saying where it is, with its words marked', async () => {
    const p = await post(c.creator, c.bubleId, 'Fika at the lakeside, then a swim in the lake')
    h().clock.advance(1000)
    const comment = await expectStatus(
      await call(c.member, 'POST', `/api/wall/posts/${p.id}/comments`, { content: 'The lake was cold!' }),
      201,
    )
    h().clock.advance(1000)
    const chat = await expectStatus(
      await call(c.owner, 'POST', `/api/chat/${c.bubleId}/messages`, { content: 'Lake tomorrow?' }),
      201,
    )
    h().clock.advance(1000)
    const event = await expectStatus(
      await call(c.creator, 'POST', `/api/bubles/${c.bubleId}/events`, {
        title: 'Picnic',
        location: 'By the lake',
        event_time: new Date(h().clock.now.getTime() + 86_400_000).toISOString(),
      }),
      201,
    )
    h().clock.advance(1000)
    const poll = await expectStatus(
      await call(c.creator, 'POST', `/api/bubles/${c.bubleId}/polls`, {
        question: 'Where do we meet?',
        options: ['At the lake', 'In town'],
      }),
      201,
    )

    const { results, hasMore, before } = await q(c.member, c.bubleId, 'lake')
    expect({ hasMore, before }).toEqual({ hasMore: false, before: null })
    expect(results.map((hit) => [hit.kind, hit.id, hit.post_id, hit.author.id])).toEqual([
      ['poll', poll.id, null, c.creator.id],
      ['event', event.id, null, c.creator.id],
      ['chat', chat.id, null, c.owner.id],
      ['comment', comment.id, p.id, c.member.id],
      ['post', p.id, null, c.creator.id],
    ])
    expect(results.map((hit) => hit.buble_id)).toEqual(Array(5).fill(c.bubleId))
    expect(results[4]!.created_at).toBe(p.created_at)
    expect(results.map(marked)).toEqual([['lake'], ['lake'], ['Lake'], ['lake'], ['lake']])
    expect(results[4]!.snippet.text).toBe('Fika at the lakeside, then a swim in the lake')
    expect(results[0]!.snippet.text).toContain('Where do we meet?')
  })

  test('stems through the english configuration, and finds stop words and names as written through simple', async () => {
    const running = await post(c.creator, c.bubleId, 'We were running late to Linnea’s party')
    const who = await post(c.creator, c.bubleId, 'The Who played all night')

    const stems = (await q(c.member, c.bubleId, 'runs')).results
    expect(stems.map((hit) => hit.id)).toEqual([running.id])
    expect(marked(stems[0]!)).toEqual(['running'])

    const names = (await q(c.member, c.bubleId, 'linnea')).results
    expect(names.map((hit) => hit.id)).toEqual([running.id])

    // Both words are english stop words: only the simple configuration has them.
    const stopWords = (await q(c.member, c.bubleId, 'the who')).results
    expect(stopWords.map((hit) => hit.id)).toEqual([who.id])
    expect(marked(stopWords[0]!)).toEqual(['The', 'Who'])
  })

  test('only members search: others get 404, as for a buble that does not exist', async () => {
    await post(c.creator, c.bubleId, 'Members only secret')
    await expectNotFound(c.outsider, [
      ['GET', `/api/bubles/${c.bubleId}/search?q=secret`],
      ['GET', '/api/bubles/00000000-0000-4000-8000-000000000000/search?q=secret'],
      ['GET', '/api/bubles/not-an-id/search?q=secret'],
    ])
    expect((await call(undefined, 'GET', `/api/bubles/${c.bubleId}/search?q=secret`)).status).toBe(401)
    const other = await club()
    expect((await q(other.owner, other.bubleId, 'secret')).results).toEqual([])
  })

  test('deleted posts, comments, chat messages, events and polls are never found', async () => {
    const kept = await post(c.creator, c.bubleId, 'Rhubarb pie recipe')
    const gone = await post(c.creator, c.bubleId, 'Rhubarb jam')
    const comment = await expectStatus(
      await call(c.member, 'POST', `/api/wall/posts/${kept.id}/comments`, { content: 'Rhubarb!' }),
      201,
    )
    const chat = await expectStatus(
      await call(c.member, 'POST', `/api/chat/${c.bubleId}/messages`, { content: 'rhubarb season' }),
      201,
    )
    const event = await expectStatus(
      await call(c.creator, 'POST', `/api/bubles/${c.bubleId}/events`, {
        title: 'Rhubarb picking',
        event_time: new Date(h().clock.now.getTime() + 86_400_000).toISOString(),
      }),
      201,
    )
    const poll = await expectStatus(
      await call(c.creator, 'POST', `/api/bubles/${c.bubleId}/polls`, {
        question: 'Pie or crumble?',
        options: ['Rhubarb pie', 'Rhubarb crumble'],
      }),
      201,
    )
    expect((await q(c.member, c.bubleId, 'rhubarb')).results).toHaveLength(6)
    await expectStatus(await call(c.creator, 'DELETE', `/api/wall/posts/${gone.id}`), 204)
    await expectStatus(await call(c.member, 'DELETE', `/api/wall/comments/${comment.id}`), 204)
    await expectStatus(await call(c.member, 'DELETE', `/api/chat/messages/${chat.id}`), 204)
    await expectStatus(await call(c.creator, 'DELETE', `/api/events/${event.id}`), 204)
    await expectStatus(await call(c.creator, 'DELETE', `/api/polls/${poll.id}`), 204)
    expect((await q(c.member, c.bubleId, 'rhubarb')).results.map((hit) => hit.id)).toEqual([kept.id])
  })

  test('pages go newest first by the cursor, without skipping or repeating posts written in the same moment', async () => {
    const ids: string[] = []
    for (let i = 0; i < 3; i++) ids.push((await post(c.creator, c.bubleId, `Cloudberry ${i}`)).id)
    // Two more at the very same time: the id breaks the tie.
    h().clock.advance(1000)
    for (let i = 0; i < 2; i++)
      ids.push(
        (
          await expectStatus(
            await call(c.creator, 'POST', `/api/wall/${c.bubleId}/posts`, { content: 'cloudberry' }),
            201,
          )
        ).id,
      )
    const seen: string[] = []
    let before: string | null = null
    let pages = 0
    do {
      const cursor: string = before ? `&before=${encodeURIComponent(before)}` : ''
      const page = await search(c.member, c.bubleId, `q=cloudberry&limit=2${cursor}`)
      seen.push(...page.results.map((hit) => hit.id))
      expect(page.hasMore).toBe(page.before !== null)
      before = page.before
      pages++
    } while (before && pages < 10)
    expect(pages).toBe(3)
    const [a, b] = [ids[3]!, ids[4]!].sort().reverse()
    expect(seen).toEqual([a, b, ids[2], ids[1], ids[0]])
  })

  test('a snippet is text with offsets: markup in content is never passed on and marker characters cannot fake a mark', async () => {
    const content = '<script>alert("x")</script> <b>mango</b> \u0001 mango \u0002'
    const p = await post(c.creator, c.bubleId, content)
    const [hit] = (await q(c.member, c.bubleId, 'mango')).results
    expect(hit!.id).toBe(p.id)
    // ts_headline leaves HTML-like tags out (a space each): what remains is plain text, marked by offsets.
    expect(hit!.snippet.text).toBe(' alert("x")   mango   mango ')
    expect(marked(hit!)).toEqual(['mango', 'mango'])
  })

  test('a mention shows in a snippet as the member is called now, never as its stored id or a piece of it', async () => {
    const named = c.moderator
    const id = named.id
    await expectStatus(await call(named, 'PUT', '/api/users/profile', { name: 'Saga Renamed' }), 200)
    const short = await post(
      c.creator,
      c.bubleId,
      `Ask ${mentionToken(id)} and ${mentionToken(c.outsider.id)} about the sauna`,
    )
    // A snippet is a window of about 30 words: the mention sits where the window starts.
    const words = (from: number, n: number) => Array.from({ length: n }, (_, i) => `w${from + i}`).join(' ')
    const long = await post(
      c.creator,
      c.bubleId,
      `${words(1, 20)} ${mentionToken(id)} ${words(30, 16)} sauna ${words(60, 10)}`,
    )

    const hits = (await q(c.member, c.bubleId, 'sauna')).results
    expect(hits.map((hit) => hit.id)).toEqual([long.id, short.id])
    expect(hits[1]!.snippet.text).toBe('Ask @Saga Renamed and @someone about the sauna')
    for (const hit of hits) {
      expect(marked(hit)).toEqual(['sauna'])
      expect(hit.snippet.text).not.toMatch(/<@|>|0{4}|[0-9a-f]{8}/)
      expect(hit.snippet.text).not.toContain(id.slice(-12))
    }
    expect(hits[0]!.snippet.text).toContain('sauna w60')
  })

  test('bad queries are 400s naming the field', async () => {
    for (const [query, field] of [
      ['', 'q'],
      ['q=%20%20', 'q'],
      [`q=${'a'.repeat(201)}`, 'q'],
      ['q=x&before=yesterday', 'before'],
      ['q=x&limit=0', 'limit'],
      ['q=x&limit=51', 'limit'],
      // The door's one text rule refuses a NUL anywhere in the address first.
      ['q=a%00b', 'url'],
    ]) {
      const res = await call(c.member, 'GET', `/api/bubles/${c.bubleId}/search?${query}`)
      const body = await expectStatus(res, 400)
      expect({ query, code: body.code, path: body.issues?.[0]?.path }).toEqual({
        query,
        code: 'VALIDATION_ERROR',
        path: field,
      })
    }
  })

  test('a query of no words finds nothing rather than failing', async () => {
    expect((await q(c.member, c.bubleId, '!!! ---')).results).toEqual([])
  })
})
