/**
 * What one API feature gives the app, and how app.ts folds a list of them. Each feature exports
 * one factory returning these parts (`… satisfies Feature`, so its mutation names stay known to
 * the compiler); app.ts mounts the routes, hands the sync parts to the sync feature, the jobs to
 * the scheduler, and closes them all.
 */

import type { MutationName } from '@buble/shared/mutations'
import type { Hono } from 'hono'
import type { Schema } from 'hono/types'
import type { AppEnv } from './auth.ts'
import type { Job } from './jobs.ts'
import type { MutationBatchers, MutationHandlers, SyncSource, UnreadSource } from './sync-sources.ts'

export interface Feature {
  /** Mounted under `/api`; a feature's routes carry their own path prefix. */
  routes?: Hono<AppEnv, Schema, string>
  /** The mutations it handles, each calling the service function its REST call uses. */
  mutations?: Partial<MutationHandlers>
  /** Mutations it can also apply several at once (the hot creates), through the same service. */
  batchers?: MutationBatchers
  /** The synced tables it owns. */
  syncSources?: readonly SyncSource[]
  /** What counts on its tab. */
  unreadSources?: readonly UnreadSource[]
  /** Its per-minute jobs (server.ts adds them to the scheduler). */
  jobs?: readonly Job[]
  /** Stops what it keeps in memory (tests open and close apps in one process). */
  close?(): void
}

type MutationsOf<F> = F extends { mutations: infer M } ? M : never
type Intersection<U> = (U extends unknown ? (part: U) => void : never) extends (all: infer I) => void ? I : never

/** The mutation names no feature of `F` handles. */
export type MissingMutations<F extends Record<string, Feature>> = Exclude<
  MutationName,
  keyof Intersection<MutationsOf<F[keyof F]>>
>

/**
 * Every feature's mutations in one map. It compiles only when together they handle every mutation
 * name: a name no feature handles is asked of the list as a property, so the error names it.
 */
export function foldMutations<F extends Record<string, Feature>>(
  features: F & { [N in MissingMutations<F>]: 'a mutation no feature handles' },
): MutationHandlers {
  return Object.assign({}, ...Object.values(features).map((feature) => feature.mutations ?? {}))
}

export const batchersOf = (features: Record<string, Feature>): MutationBatchers =>
  Object.assign({}, ...Object.values(features).map((feature) => feature.batchers ?? {}))

export const syncSourcesOf = (features: Record<string, Feature>): SyncSource[] =>
  Object.values(features).flatMap((feature) => feature.syncSources ?? [])

export const unreadSourcesOf = (features: Record<string, Feature>): UnreadSource[] =>
  Object.values(features).flatMap((feature) => feature.unreadSources ?? [])

export const jobsOf = (features: Record<string, Feature>): Job[] =>
  Object.values(features).flatMap((feature) => feature.jobs ?? [])

/** Closes every feature, in the list's order. */
export function closeFeatures(features: Record<string, Feature>): void {
  for (const feature of Object.values(features)) feature.close?.()
}

/** Checks a feature's parts and keeps their exact types (its mutation names, its extra fields). */
export const defineFeature = <F extends Feature>(parts: F): F => parts
