import { type KeyboardEvent, useRef } from 'react'
import { ADMIN_TABS, type AdminTabKey } from './admin-texts.ts'

export const tabId = (key: AdminTabKey) => `admin-tab-${key}`
export const panelId = (key: AdminTabKey) => `admin-panel-${key}`

/**
 * The admin tab bar, an ARIA tablist: one tab in the Tab order, arrows (and Home, End) move
 * between tabs and select the one they land on.
 */
export function AdminTabs({ current, onSelect }: { current: AdminTabKey; onSelect: (key: AdminTabKey) => void }) {
  const list = useRef<HTMLDivElement>(null)

  function onKeyDown(event: KeyboardEvent) {
    // From the focused tab, not the selected one: a quick second key press can beat the re-render.
    const focused = ADMIN_TABS.findIndex((tab) => tabId(tab.key) === (event.target as HTMLElement).id)
    const index = focused >= 0 ? focused : ADMIN_TABS.findIndex((tab) => tab.key === current)
    const count = ADMIN_TABS.length
    const moves: Record<string, number> = {
      ArrowRight: (index + 1) % count,
      ArrowLeft: (index - 1 + count) % count,
      Home: 0,
      End: count - 1,
    }
    const next = moves[event.key]
    if (next === undefined) return
    event.preventDefault()
    const key = ADMIN_TABS[next]!.key
    onSelect(key)
    list.current?.querySelector<HTMLElement>(`#${tabId(key)}`)?.focus()
  }

  return (
    <div className="tabs admin-tabs">
      <div ref={list} role="tablist" aria-label="Admin sections" className="admin-tablist" onKeyDown={onKeyDown}>
        {ADMIN_TABS.map((tab) => {
          const selected = tab.key === current
          return (
            <button
              key={tab.key}
              type="button"
              role="tab"
              id={tabId(tab.key)}
              aria-selected={selected}
              aria-controls={panelId(tab.key)}
              tabIndex={selected ? 0 : -1}
              className="tab"
              onClick={() => onSelect(tab.key)}
            >
              {tab.label}
            </button>
          )
        })}
      </div>
    </div>
  )
}
