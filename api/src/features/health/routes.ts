import { HealthResponse } from '@buble/shared/auth'
import { Hono } from 'hono'
import type { AppEnv } from '../../lib/auth.ts'
import { describe } from '../../lib/openapi.ts'

export function healthRoutes(db: 'pglite' | 'postgres', version: string) {
  const body = { status: 'ok', db, version } as const
  return new Hono<AppEnv>().get(
    '/',
    describe({ tag: 'health', summary: 'Liveness and the database in use', response: HealthResponse, auth: false }),
    (c) => c.json(body),
  )
}
