/** The one shape of the wall, events and chat read hooks, so that every screen reads them alike. */

/** A live query's rows: undefined until the first read answers, and when it failed. */
export type LiveRows<T> =
  | { status: 'loading'; rows?: undefined }
  | { status: 'failed'; rows?: undefined }
  | { status: 'ready'; rows: T[] }

/** Rows shown a page at a time. */
export type PagedRows<T> = LiveRows<T> & {
  /** Whether another page may be shown. */
  hasMore: boolean
  /** Shows another page; answers false when there was none. */
  loadMore(): Promise<boolean>
}

/** useLiveQuery's answer (undefined while it loads) as LiveRows. */
export const liveRows = <T>(rows: T[] | undefined): LiveRows<T> =>
  rows === undefined ? { status: 'loading' } : { status: 'ready', rows }
