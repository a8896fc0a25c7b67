/**
 * A sync server that knows the buble mutations, for screens that need the server's side of them:
 * each push is applied, and the next pull brings its effect (the created buble with its slug, the
 * `del` of a buble deleted or left, a counter read back at zero), as the real server would.
 */

import type { ContentType } from '@buble/shared/unread'
import type { Change, PullResponse, PushBody, PushResponse } from '@buble/sync/protocol'
import { alice, bubleChange, makeBuble, makeMember, memberChange, unreadChange } from './fixtures.ts'
import type { TestServer } from './test-device.ts'

export function bubleServer(
  seed: Change[] = [],
  refuse?: (mutation: PushBody['mutations'][number]) => { code: string; message: string } | null,
) {
  let waiting = [...seed]
  const server = {
    pulls: 0,
    /** Changes made elsewhere (another member's post, say), brought by the next pull. */
    send(...changes: Change[]) {
      waiting.push(...changes)
    },
    push(body: PushBody): PushResponse {
      return {
        results: body.mutations.map((mutation) => {
          const refusal = refuse?.(mutation)
          if (refusal) return { id: mutation.id, status: 'rejected' as const, ...refusal }
          const args = mutation.args as { id?: string; buble_id?: string; name?: string }
          if (mutation.name === 'buble.create' && args.id && args.name) {
            const buble = makeBuble({ id: args.id, name: args.name })
            waiting.push(bubleChange(buble), memberChange(buble.id, makeMember(alice, 'owner')))
          }
          const gone =
            mutation.name === 'buble.delete' ? args.id : mutation.name === 'buble.leave' ? args.buble_id : null
          if (gone) waiting.push({ entity: 'buble', op: 'del', id: gone, buble_id: gone })
          if (mutation.name === 'unread.read' && args.buble_id) {
            const { contentType } = mutation.args as { contentType: ContentType }
            waiting.push(unreadChange(args.buble_id, contentType, 0))
          }
          return { id: mutation.id, status: 'applied' as const }
        }),
      }
    },
    pull(): PullResponse {
      server.pulls += 1
      const changes = waiting
      waiting = []
      return { cursor: `cursor-${server.pulls}`, hasMore: false, changes }
    },
  }
  return server
}

/** A server that refuses every mutation. */
export const refusing = (code: string, message: string): Partial<TestServer> => ({
  push: (body) => ({
    results: body.mutations.map((m) => ({ id: m.id, status: 'rejected' as const, code, message })),
  }),
})
