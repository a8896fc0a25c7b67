/**
 * The open write of an async context, and the guard that keeps the root database out of it.
 *
 * Inside a transaction, every query must go through that transaction. A query on the root
 * database there reaches for a second connection while the write holds one: PGlite has only one,
 * so it waits for the write that waits for it, forever (and every later query queues behind them);
 * on PostgreSQL, enough such writes at once hold every pooled connection while each waits for one
 * more. So the database factory wraps `db.transaction` to open a scope for its callback, and
 * refuses any root-database query made while a scope is open in the same async context, at once,
 * naming the call site and where the write began. Work that must wait for the commit (mail, pushes,
 * files) is handed to `afterTransaction` (or a sync write's `w.afterCommit`), which runs it once
 * the transaction has committed, and never if it rolled back. Decision 55.
 */

import { AsyncLocalStorage } from 'node:async_hooks'

interface Scope {
  /** False once the transaction's callback has returned or thrown: work it started may then go on. */
  open: boolean
  /** The open transaction (a drizzle transaction): what a helper should query on instead. */
  readonly tx: unknown
  /** Where the write began; its stack is formatted only when a report needs it. */
  readonly began: Error
  readonly after: (() => void)[]
}

const scopes = new AsyncLocalStorage<Scope>()

/** A query on the root database while a write is open in the same async context. */
export class WriteScopeError extends Error {
  override readonly name = 'WriteScopeError'
}

const OWN_FILES = /[\\/](db[\\/](write-scope|client)\.ts|node_modules)[\\/:]/

/** The first frames of `stack` in the application's own code (not this guard, not a dependency). */
function ownFrames(stack: string | undefined, count = 3): string {
  const frames = (stack ?? '')
    .split('\n')
    .slice(1)
    .map((line) => line.trim())
    .filter((line) => line.startsWith('at ') && !OWN_FILES.test(line) && !line.includes('(node:'))
    .map((line) => line.slice(3))
  return frames.slice(0, count).join(' < ') || '(unknown)'
}

/**
 * Runs `fn` (a transaction's callback) as the open write of its async context (`began`: an error
 * made where the transaction was asked for, naming it in reports); once the caller's transaction
 * has committed, call `commit` on the answer to run what waited for it.
 */
export async function runInWriteScope<T>(
  tx: unknown,
  began: Error,
  fn: () => Promise<T>,
): Promise<{ value: T; commit(): void }> {
  const scope: Scope = { open: true, tx, began, after: [] }
  try {
    const value = await scopes.run(scope, fn)
    return {
      value,
      commit() {
        for (const run of scope.after.splice(0)) {
          try {
            run()
          } catch {
            // Each caller logs its own failures: the write has committed whatever they do.
          }
        }
      },
    }
  } finally {
    scope.open = false
  }
}

/** The transaction open in this async context, if any: where a helper given the root database must query instead. */
export const openWriteTx = <Tx>(): Tx | undefined => {
  const scope = scopes.getStore()
  return scope?.open ? (scope.tx as Tx) : undefined
}

/**
 * Runs `fn` once the transaction open in this async context has committed, and never if it rolls
 * back; outside a transaction, on the next turn. `fn` starts with no write open (it may use the root
 * database). It knows nothing of savepoints: inside a sync write use `w.afterCommit`, which drops
 * what a refused mutation's savepoint registered.
 */
export function afterTransaction(fn: () => void): void {
  const scope = scopes.getStore()
  const detached = () => scopes.exit(fn)
  if (scope?.open) scope.after.push(detached)
  else setImmediate(detached)
}

let refusals: string[] | null = null

/**
 * Tests: from now on every refused call is also kept, so a test that swallowed the error (a caught
 * and logged failure, a rejected mutation) still fails; `takeRefusals` answers and forgets them.
 */
export function keepRefusals(): void {
  refusals ??= []
}

export function takeRefusals(): string[] {
  return refusals?.splice(0) ?? []
}

/** The error for a root-database call made now, or null when no write is open here. */
export function rootCallRefused(what: string): WriteScopeError | null {
  const scope = scopes.getStore()
  if (!scope?.open) return null
  const error = new WriteScopeError(
    `${what} on the root database inside an open write, which holds the only connection it may use: query on the write's transaction (w.tx), or do it after the commit (w.afterCommit). Called from ${ownFrames(new Error().stack)}; the write began at ${ownFrames(scope.began.stack, 2)}`,
  )
  refusals?.push(error.message)
  return error
}
