import { Hono } from 'hono'
import { describe, expect, test } from 'vitest'
import { RememberingRouter } from './remembered-routes.ts'

/** The same routes on Hono's default router and on the remembering one. */
function apps(max?: number) {
  const router = new RememberingRouter<never>(max)
  const build = (app: Hono) =>
    app
      .use('/api/*', async (c, next) => {
        await next()
        c.header('x-through', 'api')
      })
      .get('/api/bubles/:idOrSlug', (c) => c.json({ route: 'buble', id: c.req.param('idOrSlug') }))
      .get('/api/bubles/:id/members', (c) => c.json({ route: 'members', id: c.req.param('id') }))
      .post('/api/bubles/:id/invites', (c) => c.json({ route: 'invite', id: c.req.param('id') }))
      .get('/api/wall/:bubleId/posts', (c) => c.json({ route: 'wall', id: c.req.param('bubleId') }))
      .get('/api/wall/posts/:id/comments', (c) => c.json({ route: 'comments', id: c.req.param('id') }))
      .all('/api/*', (c) => c.json({ route: 'none' }, 404))
  return { plain: build(new Hono()), remembering: build(new Hono({ router: router as never })), router }
}

describe('the remembering router (remembered-routes.ts)', () => {
  test('answers as Hono’s own router does, asked once or many times, params and middleware included', async () => {
    const { plain, remembering } = apps()
    const asks = [
      ['GET', '/api/bubles/b1'],
      ['GET', '/api/bubles/b2'],
      ['GET', '/api/bubles/b1/members'],
      ['POST', '/api/bubles/b1/invites'],
      ['GET', '/api/bubles/b1/invites'],
      ['GET', '/api/wall/b1/posts'],
      ['GET', '/api/wall/posts/p1/comments'],
      ['DELETE', '/api/bubles/b1'],
      ['GET', '/elsewhere'],
    ] as const
    for (let round = 0; round < 3; round++)
      for (const [method, path] of asks) {
        const [mine, theirs] = await Promise.all([
          remembering.request(path, { method }),
          plain.request(path, { method }),
        ])
        expect({ status: mine.status, through: mine.headers.get('x-through'), body: await mine.text() }).toEqual({
          status: theirs.status,
          through: theirs.headers.get('x-through'),
          body: await theirs.text(),
        })
      }
  })

  test('it remembers at most its bound, the newest paths', async () => {
    const { remembering, router } = apps(100)
    for (let i = 0; i < 1000; i++) {
      const res = await remembering.request(`/api/bubles/b${i}`)
      expect(await res.json()).toEqual({ route: 'buble', id: `b${i}` })
      expect(router.size).toBeLessThanOrEqual(100)
    }
    expect(router.size).toBe(100)
    expect(await (await remembering.request('/api/bubles/b999')).json()).toEqual({ route: 'buble', id: 'b999' })
    expect(await (await remembering.request('/api/bubles/b0')).json()).toEqual({ route: 'buble', id: 'b0' })
  })
})
