/**
 * A component whose code loads when it is first rendered (issue 20 §3: a small first load). Unlike a bare
 * React.lazy, it renders at once, without suspending, when its module is already here: after `preload()`
 * (the route of the address the app opens at, main.tsx) or after any earlier render. The service worker
 * precaches every chunk, so offline it loads from the cache.
 */

import { type ComponentType, createElement, lazy, useState } from 'react'

type Loaded<P> = ComponentType<P>

export interface LazyPart<P> {
  (props: P): ReturnType<typeof createElement>
  /** Starts loading the code; resolves once it is here. */
  preload: () => Promise<unknown>
}

const everyPart = new Set<() => Promise<unknown>>()

export function lazyPart<K extends string, P extends object>(
  load: () => Promise<{ [key in K]: ComponentType<P> }>,
  name: K,
): LazyPart<P> {
  let loaded: Loaded<P> | undefined
  let loading: Promise<Loaded<P>> | undefined
  const preload = () => {
    loading ??= load().then(
      (module) => {
        loaded = module[name]
        return loaded
      },
      (err: unknown) => {
        // A chunk that failed (offline before it was cached) is asked for again next time.
        loading = undefined
        throw err
      },
    )
    return loading
  }
  const Suspending = lazy(async () => ({ default: await preload() }))
  everyPart.add(preload)
  const Part = (props: P) => {
    // Chosen once per mount: switching from the suspending wrapper to the loaded component would remount it.
    const [type] = useState(() => loaded ?? Suspending)
    return createElement(type as ComponentType<P>, props)
  }
  return Object.assign(Part, { preload })
}

/**
 * Loads every lazy part, and those their code declares, until none is left: tests render the app at once,
 * as an offline device with every chunk cached would.
 */
export async function preloadEveryPart(): Promise<void> {
  const done = new Set<() => Promise<unknown>>()
  for (;;) {
    const pending = [...everyPart].filter((preload) => !done.has(preload))
    if (pending.length === 0) return
    for (const preload of pending) done.add(preload)
    await Promise.all(pending.map((preload) => preload()))
  }
}
