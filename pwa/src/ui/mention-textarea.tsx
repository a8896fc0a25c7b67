/**
 * A textarea that suggests the buble's members after `@` (decision 94). It shows mentions as people
 * read them (`@Ana`) and answers the text as stored (`<@id>`), so a mention survives editing and a
 * change of name. Keyboard: arrows move, Enter or Tab picks, Escape closes; a tap picks too.
 */

import { filterMembers, mentionQueryAt, renderMentions, storeMentions } from '@buble/shared/mentions'
import {
  type KeyboardEvent,
  type Ref,
  type TextareaHTMLAttributes,
  useId,
  useImperativeHandle,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
} from 'react'
import { type MentionMember, useMentionMembers } from './mention-members.tsx'

interface MentionTextareaProps extends Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'value' | 'onChange'> {
  /** The text as stored: mentions as `<@id>` tokens. */
  value: string
  onValueChange: (stored: string) => void
  ref?: Ref<HTMLTextAreaElement>
  /** Where the suggestions open: below the field, or above it (a field at the foot of the screen). */
  placement?: 'below' | 'above'
}

interface Query {
  start: number
  query: string
}

export function MentionTextarea({
  value,
  onValueChange,
  ref,
  placement = 'below',
  onKeyDown,
  onBlur,
  ...rest
}: MentionTextareaProps) {
  const id = useId()
  const field = useRef<HTMLTextAreaElement>(null)
  useImperativeHandle(ref, () => field.current as HTMLTextAreaElement, [])
  const { members, me, nameOf } = useMentionMembers()
  const readable = renderMentions(value, nameOf)
  const [query, setQuery] = useState<Query | null>(null)
  const [active, setActive] = useState(0)
  /** Where the caret goes once a pick has rendered. */
  const caret = useRef<number | null>(null)

  const matches = useMemo(
    () =>
      query
        ? filterMembers(
            members.filter((m) => m.id !== me),
            query.query,
          )
        : [],
    [members, me, query],
  )
  const open = matches.length > 0
  const activeIndex = Math.min(active, matches.length - 1)

  useLayoutEffect(() => {
    if (caret.current === null || !field.current) return
    field.current.setSelectionRange(caret.current, caret.current)
    caret.current = null
  })

  /** Looks for an `@query` at the caret (after typing, clicking, moving). */
  function lookAtCaret(text: string, at: number | null) {
    const found = at === null ? null : mentionQueryAt(text, at)
    setQuery((before) => (before?.start === found?.start && before?.query === found?.query ? before : found))
    if (found?.start !== query?.start) setActive(0)
  }

  function change(text: string) {
    onValueChange(storeMentions(text, members))
    lookAtCaret(text, field.current?.selectionStart ?? text.length)
  }

  function pick(member: MentionMember) {
    if (!query) return
    const end = query.start + 1 + query.query.length
    const inserted = `@${member.name} `
    const text = readable.slice(0, query.start) + inserted + readable.slice(end).replace(/^ /, '')
    caret.current = query.start + inserted.length
    setQuery(null)
    onValueChange(storeMentions(text, members))
    field.current?.focus()
  }

  function keyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    if (open && !event.nativeEvent.isComposing) {
      if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
        event.preventDefault()
        const step = event.key === 'ArrowDown' ? 1 : -1
        setActive((activeIndex + step + matches.length) % matches.length)
        return
      }
      if ((event.key === 'Enter' && !event.shiftKey) || event.key === 'Tab') {
        event.preventDefault()
        event.stopPropagation()
        pick(matches[activeIndex]!)
        return
      }
      if (event.key === 'Escape') {
        event.preventDefault()
        event.stopPropagation()
        setQuery(null)
        return
      }
    }
    onKeyDown?.(event)
  }

  const listId = `${id}-mentions`
  const optionId = (n: number) => `${id}-mention-${n}`
  return (
    <div className={`mention-field mention-${placement}`}>
      <textarea
        {...rest}
        ref={field}
        value={readable}
        aria-autocomplete="list"
        aria-controls={open ? listId : undefined}
        aria-activedescendant={open ? optionId(activeIndex) : undefined}
        onChange={(event) => change(event.target.value)}
        onKeyDown={keyDown}
        onSelect={(event) => lookAtCaret(event.currentTarget.value, event.currentTarget.selectionStart)}
        onBlur={(event) => {
          setQuery(null)
          onBlur?.(event)
        }}
      />
      {open && (
        <div className="mention-list" id={listId} role="listbox" aria-label="Members to mention">
          {matches.map((member, n) => (
            // biome-ignore lint/a11y/useKeyWithClickEvents: the keyboard picks from the field (arrows, Enter, Tab), which keeps the focus.
            <div
              tabIndex={-1}
              key={member.id}
              id={optionId(n)}
              role="option"
              aria-selected={n === activeIndex}
              className={n === activeIndex ? 'is-active' : undefined}
              // The field keeps the focus (and its caret) while a member is tapped.
              onPointerDown={(event) => event.preventDefault()}
              onMouseDown={(event) => event.preventDefault()}
              onClick={() => pick(member)}
            >
              @{member.name}
            </div>
          ))}
        </div>
      )}
    </div>
  )
}
