/**
 * A component whose code loads when it is first rendered (issue 20 §3: a small first load). Unlike a bare
 * React.lazy, it renders at once, without suspending, when its module is already here: after `preload()`
 * (the route of the address the app opens at, main.tsx) or after any earlier render. The service worker
 * precaches every chunk, so offline it loads from the cache.
 */

import { type ComponentType, createElement, lazy, type ReactNode, Suspense, useState } from 'react'
import { PartBoundary } from './part-boundary.tsx'

export interface LazyPart<P> {
  (props: P): ReturnType<typeof createElement>
  /** Starts loading the code; resolves once it is here. */
  preload: () => Promise<unknown>
}

/** A function component's props; none for one that takes no argument. */
type PropsOf<C> = C extends (props: infer Q) => unknown ? (unknown extends Q ? object : Q) : object

const everyPart = new Set<() => Promise<unknown>>()

/**
 * `fallback`, when given (null included), is what shows while the code loads, in a boundary of the part's
 * own: a dialog or a tab loading leaves the page around it as it is. Without it, the nearest boundary up
 * the tree (a route's) shows its spinner.
 */
export function lazyPart<K extends string, M extends { [key in K]: (props: never) => ReactNode }>(
  load: () => Promise<M>,
  name: K,
  options?: { fallback: ReactNode },
): LazyPart<PropsOf<M[K]>> {
  let loaded: ComponentType<object> | undefined
  let loading: Promise<ComponentType<object>> | undefined
  const preload = () => {
    loading ??= load().then(
      (module) => {
        loaded = module[name] as unknown as ComponentType<object>
        return loaded
      },
      (err: unknown) => {
        // A chunk that failed (offline before it was cached) is asked for again next time: React.lazy keeps
        // a rejection for good, so the next mount gets a loader of its own.
        loading = undefined
        Suspending = suspending()
        throw err
      },
    )
    return loading
  }
  const suspending = () => lazy(async () => ({ default: await preload() }))
  let Suspending = suspending()
  everyPart.add(preload)
  const Chosen = (props: PropsOf<M[K]>) => {
    // Chosen once per mount: switching from the suspending wrapper to the loaded component would remount it.
    const [type] = useState<ComponentType<object>>(() => loaded ?? Suspending)
    const part = createElement(type, props as object)
    return options && type !== loaded ? createElement(Suspense, { fallback: options.fallback }, part) : part
  }
  // A part that fails (its code, or its render) says so in its place and the page around it stays; its
  // "Try again" mounts the part anew, with a fresh loader if the code had failed.
  const Part = (props: PropsOf<M[K]>) => createElement(PartBoundary, null, createElement(Chosen, props))
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
