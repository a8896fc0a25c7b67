/**
 * Where a signed-out visitor goes back to once signed in or signed up (issue 21 §4: a join link opened
 * signed out). Kept for this tab only, for an hour, and only for the join page: nothing else can be
 * planted as a place to land.
 */

const KEY = 'buble.return-to'
const TTL_MS = 60 * 60 * 1000
const ALLOWED = /^\/join\/[A-Za-z0-9-]{1,64}$/

export function rememberReturn(path: string, now: number = Date.now()): void {
  if (!ALLOWED.test(path)) return
  try {
    sessionStorage.setItem(KEY, JSON.stringify({ path, at: now }))
  } catch {
    // Storage refused (a private window): the visitor lands on the dashboard, as before.
  }
}

/** The remembered page, once: reading it forgets it. */
export function takeReturn(now: number = Date.now()): string | null {
  try {
    const raw = sessionStorage.getItem(KEY)
    sessionStorage.removeItem(KEY)
    if (!raw) return null
    const { path, at } = JSON.parse(raw) as { path?: unknown; at?: unknown }
    if (typeof path !== 'string' || !ALLOWED.test(path) || typeof at !== 'number' || now - at > TTL_MS) return null
    return path
  } catch {
    return null
  }
}

let landing: { path: string; at: number } | null = null

/**
 * Where the sign-in about to happen lands. The signed-out-only pages' guard sends a visitor who has
 * just signed in to the dashboard, and a store change renders before a navigation does: the guard
 * follows this instead, for a few seconds after it is set.
 */
export function landAfterSignIn(path: string, now: number = Date.now()): string {
  landing = { path, at: now }
  return path
}

/** The landing just chosen, else the dashboard. */
export function signedInLanding(now: number = Date.now()): string {
  return landing && now - landing.at < 5000 ? landing.path : '/dashboard'
}
