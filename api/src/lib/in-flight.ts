/**
 * Counts the requests whose handlers are still running, so shutdown can let them finish before the
 * database closes under them. A client that hangs up does not stop its handler: the write it asked
 * for goes on, and must either commit or roll back, never meet a closed pool halfway. A streamed
 * answer counts until its handler has returned the response, not for as long as it streams.
 */

export interface InFlight<A extends unknown[], R> {
  /** `handler`, counted. */
  handler: (...args: A) => Promise<R>
  /** Handlers running now. */
  readonly count: number
  /** Resolves true once none is running, or false when `timeoutMs` passed first. */
  drained(timeoutMs: number): Promise<boolean>
}

export function trackInFlight<A extends unknown[], R>(handler: (...args: A) => R | Promise<R>): InFlight<A, R> {
  let count = 0
  const waiters = new Set<() => void>()
  return {
    async handler(...args) {
      count++
      try {
        return await handler(...args)
      } finally {
        count--
        if (count === 0) for (const wake of [...waiters]) wake()
      }
    },
    get count() {
      return count
    },
    drained(timeoutMs) {
      if (count === 0) return Promise.resolve(true)
      return new Promise((resolve) => {
        const done = (result: boolean) => {
          clearTimeout(timer)
          waiters.delete(wake)
          resolve(result)
        }
        const wake = () => done(true)
        const timer = setTimeout(() => done(false), timeoutMs)
        waiters.add(wake)
      })
    },
  }
}
