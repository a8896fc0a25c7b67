import { useEffect } from 'react'

/** The page's own title and the unread total it is prefixed with; one title for every screen. */
const state = { title: '', unread: 0 }

/** "(3) Your Bubles · Buble": the unread total first when there is any, then the page, then the app. */
export const composeTitle = (title: string, unread: number): string =>
  `${unread > 0 ? `(${unread}) ` : ''}${title ? `${title} · Buble` : 'Buble'}`

const write = () => {
  document.title = composeTitle(state.title, state.unread)
}

export function useDocumentTitle(title: string): void {
  useEffect(() => {
    state.title = title
    write()
  }, [title])
}

/** Prefixes every page's title with the unread total while mounted (the signed-in layout does). */
export function useTitleUnread(unread: number): void {
  useEffect(() => {
    state.unread = unread
    write()
    return () => {
      state.unread = 0
      write()
    }
  }, [unread])
}
