import type { SearchHit, SearchPage } from '@buble/shared/search'
import { useCallback, useEffect, useState } from 'react'
import { useOnline } from '../../data/sync-status.ts'
import { ApiError } from '../../session/api-client.ts'
import { useApi } from '../../session/session-context.tsx'

export type ServerSearch =
  | { status: 'idle' | 'offline'; hits: SearchHit[]; hasMore: false }
  | { status: 'loading' | 'ready' | 'failed'; hits: SearchHit[]; hasMore: boolean }

/**
 * The server's hits for `query` (older history than the device holds), a page at a time: online
 * only; offline it waits and asks once back online. An empty query asks nothing.
 */
export function useServerSearch(bubleId: string, query: string) {
  const api = useApi()
  const online = useOnline()
  const [state, setState] = useState<ServerSearch & { before: string | null }>({
    status: 'idle',
    hits: [],
    hasMore: false,
    before: null,
  })

  const ask = useCallback(
    async (before: string | null, signal: AbortSignal) => {
      const params = new URLSearchParams({ q: query })
      if (before) params.set('before', before)
      return api.get<SearchPage>(`/bubles/${bubleId}/search?${params}`, signal)
    },
    [api, bubleId, query],
  )

  useEffect(() => {
    if (query.trim() === '') return setState({ status: 'idle', hits: [], hasMore: false, before: null })
    if (!online) return setState({ status: 'offline', hits: [], hasMore: false, before: null })
    const controller = new AbortController()
    setState({ status: 'loading', hits: [], hasMore: false, before: null })
    ask(null, controller.signal).then(
      (page) => setState({ status: 'ready', hits: page.results, hasMore: page.hasMore, before: page.before }),
      (err: unknown) => {
        if (controller.signal.aborted) return
        if (!(err instanceof ApiError)) console.error('Search failed', err)
        setState({ status: 'failed', hits: [], hasMore: false, before: null })
      },
    )
    return () => controller.abort()
  }, [ask, query, online])

  async function loadMore() {
    const { before, hits } = state
    if (!before || state.status !== 'ready') return
    setState({ ...state, status: 'loading' })
    try {
      const page = await ask(before, new AbortController().signal)
      setState({ status: 'ready', hits: [...hits, ...page.results], hasMore: page.hasMore, before: page.before })
    } catch {
      setState({ status: 'failed', hits, hasMore: false, before: null })
    }
  }

  return { ...state, loadMore }
}
