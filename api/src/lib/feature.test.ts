import { describe, expect, test } from 'vitest'
import { closeFeatures, defineFeature, foldMutations, jobsOf, syncSourcesOf, unreadSourcesOf } from './feature.ts'
import type { Job } from './jobs.ts'
import type { MutationHandlers, SyncSource, UnreadSource } from './sync-sources.ts'

describe('folding a list of features', () => {
  test('the mutation maps join into one, each name answered by its own feature', async () => {
    const unread = defineFeature({ mutations: { 'unread.read': async () => 'unread' } })
    // The other features' handlers, as far as the compiler is concerned.
    const rest = { mutations: {} as Omit<MutationHandlers, 'unread.read'> }
    const folded = foldMutations({ unread, rest })
    expect(await folded['unread.read']({} as never, {} as never)).toBe('unread')
  })

  test('a mutation no feature handles does not compile', () => {
    const partial = { mutations: {} as Omit<MutationHandlers, 'unread.read' | 'poll.vote'> }
    // @ts-expect-error: 'unread.read' and 'poll.vote' have no handler.
    expect(() => foldMutations({ partial })).not.toThrow()
  })

  test('sources and jobs come in the order of the list; closing closes every feature in it', () => {
    const source = (entity: SyncSource['entity']) => ({ entity, load: async () => new Map() }) satisfies SyncSource
    const unreadSource = { contentType: 'wall', entity: 'post' } as UnreadSource
    const job = (name: string): Job => ({ name, lockKey: 1, run: async () => {} })
    const closed: string[] = []
    const features = {
      first: defineFeature({ syncSources: [source('post')], jobs: [job('a')], close: () => closed.push('first') }),
      quiet: defineFeature({}),
      second: defineFeature({
        syncSources: [source('event')],
        unreadSources: [unreadSource],
        jobs: [job('b')],
        close: () => closed.push('second'),
      }),
    }
    expect(syncSourcesOf(features).map((s) => s.entity)).toEqual(['post', 'event'])
    expect(unreadSourcesOf(features)).toEqual([unreadSource])
    expect(jobsOf(features).map((j) => j.name)).toEqual(['a', 'b'])
    closeFeatures(features)
    expect(closed).toEqual(['first', 'second'])
  })
})
