import type { ReactNode } from 'react'
import { EmptyState } from './empty-state.tsx'
import { Spinner } from './spinner.tsx'
import { foundItemProps, useFoundItem } from './use-found-item.ts'

interface ContentListProps<T extends { id: string }> {
  title: string
  /** The create button, for those who may create; left out otherwise. */
  create?: { label: string; onClick: () => void }
  items: readonly T[] | undefined
  loadingLabel: string
  empty: { title: string; text: string }
  children: (item: T) => ReactNode
}

/** A tab's list of cards (events, polls): a heading with its create button, then loading, empty, or the cards. */
export function ContentList<T extends { id: string }>({
  title,
  create,
  items,
  loadingLabel,
  empty,
  children,
}: ContentListProps<T>) {
  const titleId = `${title.toLowerCase()}-title`
  const found = useFoundItem(items)
  return (
    <section className="content-list" aria-labelledby={titleId}>
      <div className="card-head">
        <h2 className="section-title" id={titleId}>
          {title}
        </h2>
        {create && (
          <button type="button" className="btn btn-primary btn-small" aria-haspopup="dialog" onClick={create.onClick}>
            {create.label}
          </button>
        )}
      </div>
      {items === undefined ? (
        <Spinner label={loadingLabel} />
      ) : items.length === 0 ? (
        <EmptyState title={empty.title}>
          <p>{empty.text}</p>
        </EmptyState>
      ) : (
        <ol className="event-list" aria-label={title}>
          {items.map((item) => (
            <li key={item.id} {...foundItemProps(item.id, found)}>
              {children(item)}
            </li>
          ))}
        </ol>
      )}
    </section>
  )
}
