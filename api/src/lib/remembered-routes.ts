/**
 * Hono's router with the matches it made remembered, by method and path.
 *
 * The app has close to 300 routes; Hono's fast router (RegExpRouter) cannot hold them (routes of
 * different features name the same path segment differently), so its SmartRouter falls back to
 * the TrieRouter, which walks the tree on every request: a twentieth of what `GET /api/health`
 * cost. A match depends on nothing but the method and the path, and Hono only reads it, so one
 * made for a path answers every later request for it. Paths with ids are many: the memory holds
 * the most recent `MAX_REMEMBERED`, oldest out first.
 */

import type { Result, Router } from 'hono/router'
import { RegExpRouter } from 'hono/router/reg-exp-router'
import { SmartRouter } from 'hono/router/smart-router'
import { TrieRouter } from 'hono/router/trie-router'

export const MAX_REMEMBERED = 10_000

export class RememberingRouter<T> implements Router<T> {
  readonly name = 'RememberingRouter'
  readonly #inner: Router<T> = new SmartRouter<T>({ routers: [new RegExpRouter(), new TrieRouter()] })
  readonly #matches = new Map<string, Result<T>>()

  constructor(readonly max = MAX_REMEMBERED) {}

  add(method: string, path: string, handler: T): void {
    // Hono adds every route before the first match; a route added later still clears what is known.
    this.#matches.clear()
    this.#inner.add(method, path, handler)
  }

  match(method: string, path: string): Result<T> {
    const key = `${method} ${path}`
    const known = this.#matches.get(key)
    if (known) return known
    const match = this.#inner.match(method, path)
    if (this.#matches.size >= this.max) this.#matches.delete(this.#matches.keys().next().value as string)
    this.#matches.set(key, match)
    return match
  }

  /** How many matches are remembered (tests). */
  get size(): number {
    return this.#matches.size
  }
}
