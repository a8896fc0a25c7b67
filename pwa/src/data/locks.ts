/** Web Locks, shared by the page's engine and the service worker's flush, with a fallback where they are missing. */

export type LockManager = {
  request<T>(name: string, options: { signal?: AbortSignal }, fn: () => Promise<T>): Promise<T>
  request<T>(name: string, fn: () => Promise<T>): Promise<T>
}

export const locks = (): LockManager | undefined => (navigator as Navigator & { locks?: LockManager }).locks

/** The lock a user's sync rounds take, in every tab and in the service worker. */
export const roundLock = (userId: string) => `buble-sync-round:${userId}`

/** Runs `fn` while holding the named Web Lock (or at once where Web Locks are missing). */
export function exclusively(name: string) {
  return <T>(fn: () => Promise<T>): Promise<T> => {
    const manager = locks()
    return manager ? (manager.request(name, fn) as Promise<T>) : fn()
  }
}
