import { useEffect, useMemo, useState } from 'react'
import { useApi } from '../../session/session-context.tsx'
import { adminApi } from './admin-api.ts'
import { ADMIN_TEXTS, type ListTabKey, SEARCH_DEBOUNCE_MS } from './admin-texts.ts'
import type { AdminRows, Pagination } from './admin-types.ts'
import { useAdminQuery } from './use-admin-query.ts'

export interface Page<Row> {
  rows: Row[]
  pagination: Pagination
}

/**
 * One admin table's rows: the page, the search box's text and the search it settled on (after
 * typing pauses; a new search starts again at page 1), and the loaded page.
 */
export function usePagedList<K extends ListTabKey>(tab: K) {
  const api = useApi()
  const admin = useMemo(() => adminApi(api), [api])
  const [page, setPage] = useState(1)
  const [searchText, setSearchText] = useState('')
  const [search, setSearch] = useState('')

  useEffect(() => {
    const settled = searchText.trim()
    if (settled === search) return
    const timer = setTimeout(() => {
      setSearch(settled)
      setPage(1)
    }, SEARCH_DEBOUNCE_MS)
    return () => clearTimeout(timer)
  }, [searchText, search])

  const query = useAdminQuery<Page<AdminRows[K]>>(
    `${tab}|${page}|${search}`,
    (signal) => admin.list(tab, { page, search }, signal),
    ADMIN_TEXTS.loadTab(tab),
  )

  // The last row of the last page deleted: step back to the page that is now the last.
  const pages = query.status === 'ready' ? query.data.pagination.pages : null
  useEffect(() => {
    if (pages !== null && pages >= 1 && page > pages) setPage(pages)
  }, [page, pages])

  return { admin, page, setPage, searchText, setSearchText, search, query }
}
