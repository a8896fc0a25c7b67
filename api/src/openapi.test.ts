import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { isPublicPath } from './lib/auth.ts'
import { createHarness, type Harness } from './testing/harness.ts'

type Operation = {
  summary?: string
  security?: unknown[]
  requestBody?: { content: Record<string, { schema: Record<string, unknown> }> }
  responses: Record<string, unknown>
}
type Spec = {
  openapi: string
  info: { title: string; version: string }
  paths: Record<string, Record<string, Operation>>
  security?: unknown[]
  components?: { securitySchemes?: Record<string, unknown> }
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'] as const

// The document describes itself in code only; the database does not change it, so PGlite is enough.
describe('the OpenAPI document', () => {
  let h: Harness
  let spec: Spec
  beforeAll(async () => {
    h = await createHarness('pglite', { BUBLE_RATE_LIMITS: 'off' })
    const res = await h.call('GET', '/api/openapi.json')
    expect(res.status).toBe(200)
    spec = await res.json()
  })
  afterAll(() => h?.close())

  /** Every real handler mounted under /api/, as `{path, method}` in OpenAPI's spelling. */
  const mountedRoutes = () => {
    const seen = new Map<string, { path: string; method: string }>()
    for (const route of h.app.routes) {
      if (route.method === 'ALL') continue
      if (!route.path.startsWith('/api/') || route.path === '/api/*' || route.path === '/api/openapi.json') continue
      const path = route.path.replace(/:([A-Za-z0-9_]+)/g, '{$1}')
      const method = route.method.toLowerCase()
      seen.set(`${method} ${path}`, { path, method })
    }
    return [...seen.values()]
  }

  test('is served without a token as OpenAPI 3.1 JSON', async () => {
    const res = await h.call('GET', '/api/openapi.json')
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toMatch(/^application\/json/)
    expect(spec.openapi.startsWith('3.1')).toBe(true)
    expect(spec.info.title).toBe('Buble API')
    expect(spec.info.version).toBe(h.deps.config.version)
  })

  test('lists every mounted route with its method', () => {
    const routes = mountedRoutes()
    // A sanity floor, so an empty route list cannot pass.
    expect(routes.length).toBeGreaterThanOrEqual(15)
    const missing = routes.filter(({ path, method }) => !spec.paths[path]?.[method])
    expect(missing).toEqual([])
  })

  test('lists nothing that is not mounted', () => {
    const mounted = new Set(mountedRoutes().map(({ path, method }) => `${method} ${path}`))
    const documented = Object.entries(spec.paths).flatMap(([path, item]) =>
      METHODS.filter((method) => item[method]).map((method) => `${method} ${path}`),
    )
    expect(documented.filter((entry) => !mounted.has(entry))).toEqual([])
  })

  test('does not describe itself', () => {
    expect(spec.paths['/api/openapi.json']).toBeUndefined()
  })

  test('every operation has a summary, a success answer and the error body', () => {
    for (const [path, item] of Object.entries(spec.paths)) {
      for (const method of METHODS) {
        const op = item[method]
        if (!op) continue
        expect(op.summary, `${method} ${path}`).toBeTruthy()
        expect(
          Object.keys(op.responses).some((status) => /^2\d\d$/.test(status)),
          `${method} ${path}`,
        ).toBe(true)
        expect(op.responses.default, `${method} ${path}`).toBeDefined()
      }
    }
  })

  test('marks exactly the public paths of CONTRACT §2 as needing no token', () => {
    expect(spec.security).toEqual([{ bearer: [] }])
    expect(spec.components?.securitySchemes?.bearer).toMatchObject({ type: 'http', scheme: 'bearer' })
    for (const [path, item] of Object.entries(spec.paths)) {
      for (const method of METHODS) {
        const op = item[method]
        if (!op) continue
        const open = Array.isArray(op.security) && op.security.length === 0
        expect(open, `${method} ${path}`).toBe(isPublicPath(path))
      }
    }
    expect(spec.paths['/api/auth/refresh-token']?.post?.security).toBeUndefined()
  })

  test('the register request body is generated from the zod schema', () => {
    const body = spec.paths['/api/auth/register']?.post?.requestBody
    expect(body).toBeDefined()
    const schema = body!.content['application/json']!.schema as {
      type: string
      properties: Record<string, { type: string; minLength?: number; maxLength?: number }>
      required: string[]
    }
    expect(schema.type).toBe('object')
    expect(Object.keys(schema.properties).sort()).toEqual(['email', 'name', 'password'])
    expect(schema.properties.name).toMatchObject({ type: 'string', minLength: 2, maxLength: 80 })
    expect(schema.required.sort()).toEqual(['email', 'name', 'password'])
  })

  test('other validated bodies are described too', () => {
    for (const [path, method] of [
      ['/api/auth/login', 'post'],
      ['/api/auth/reset-password', 'post'],
      ['/api/users/profile', 'put'],
      ['/api/users/change-password', 'post'],
    ] as const) {
      expect(spec.paths[path]?.[method]?.requestBody?.content['application/json'], `${method} ${path}`).toBeDefined()
    }
  })

  test('the avatar upload is described as a multipart body with a binary file', () => {
    const multipart = spec.paths['/api/uploads/avatar']?.post?.requestBody?.content['multipart/form-data']
    expect(multipart?.schema).toMatchObject({
      properties: { file: { type: 'string', format: 'binary' } },
      required: ['file'],
    })
  })
})
