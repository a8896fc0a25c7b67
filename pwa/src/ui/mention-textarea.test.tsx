import { mentionToken } from '@buble/shared/mentions'
import { render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { useState } from 'react'
import { expect, test, vi } from 'vitest'
import { LinkedText } from './linked-text.tsx'
import { MentionMembersList } from './mention-members.tsx'
import { MentionTextarea } from './mention-textarea.tsx'

const ANA = '0190a0b0-0000-7000-8000-000000000001'
const ANDERS = '0190a0b0-0000-7000-8000-000000000002'
const BO = '0190a0b0-0000-7000-8000-000000000003'
const ME = '0190a0b0-0000-7000-8000-000000000004'
const MEMBERS = [
  { id: ANA, name: 'Ana' },
  { id: ANDERS, name: 'Anders Berg' },
  { id: BO, name: 'Bo' },
  { id: ME, name: 'Me Myself' },
]

/** The field as a composer holds it: the stored text is what it keeps. */
function renderField(initial = '', onKeyDown = vi.fn()) {
  const stored: string[] = []
  function Composer() {
    const [text, setText] = useState(initial)
    return (
      <MentionMembersList members={MEMBERS} me={ME}>
        <label htmlFor="field">Write</label>
        <MentionTextarea
          id="field"
          value={text}
          onKeyDown={onKeyDown}
          onValueChange={(next) => {
            stored.push(next)
            setText(next)
          }}
        />
      </MentionMembersList>
    )
  }
  const user = userEvent.setup()
  render(<Composer />)
  return { user, field: screen.getByRole('textbox', { name: 'Write' }) as HTMLTextAreaElement, stored, onKeyDown }
}

test('typing @ lists the members but oneself, and typing filters them', async () => {
  const { user, field } = renderField()
  await user.type(field, 'Hi @')
  expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual(['@Ana', '@Anders Berg', '@Bo'])
  await user.type(field, 'be')
  expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual(['@Anders Berg'])
  await user.type(field, 'x')
  expect(screen.queryByRole('listbox')).not.toBeInTheDocument()
})

test('arrows move, Enter picks: the field reads @Name and keeps the id; the composer does not see the Enter', async () => {
  const { user, field, stored, onKeyDown } = renderField()
  await user.type(field, 'Ask @an')
  expect(screen.getByRole('option', { name: '@Ana' })).toHaveAttribute('aria-selected', 'true')
  await user.keyboard('{ArrowDown}')
  expect(screen.getByRole('option', { name: '@Anders Berg' })).toHaveAttribute('aria-selected', 'true')
  expect(field).toHaveAttribute('aria-activedescendant', screen.getByRole('option', { name: '@Anders Berg' }).id)
  await user.keyboard('{ArrowDown}{ArrowUp}{ArrowUp}{ArrowDown}')
  onKeyDown.mockClear()
  await user.keyboard('{Enter}')
  expect(onKeyDown).not.toHaveBeenCalled()
  expect(field.value).toBe('Ask @Anders Berg ')
  expect(stored.at(-1)).toBe(`Ask ${mentionToken(ANDERS)} `)
  expect(screen.queryByRole('listbox')).not.toBeInTheDocument()
  await user.type(field, 'now')
  expect(stored.at(-1)).toBe(`Ask ${mentionToken(ANDERS)} now`)
})

test('Tab picks too, and Escape closes the list without reaching the composer', async () => {
  const { user, field, stored, onKeyDown } = renderField()
  await user.type(field, '@b')
  await user.keyboard('{Tab}')
  expect(stored.at(-1)).toBe(`${mentionToken(BO)} `)
  expect(field).toHaveFocus()
  await user.type(field, '@')
  expect(screen.getByRole('listbox')).toBeInTheDocument()
  onKeyDown.mockClear()
  await user.keyboard('{Escape}')
  expect(screen.queryByRole('listbox')).not.toBeInTheDocument()
  expect(onKeyDown).not.toHaveBeenCalled()
  // Closed, Escape and Enter are the composer's again.
  await user.keyboard('{Escape}')
  expect(onKeyDown).toHaveBeenCalledTimes(1)
})

test('a tap picks a member', async () => {
  const { user, field, stored } = renderField()
  await user.type(field, 'hey @')
  await user.click(screen.getByRole('option', { name: '@Bo' }))
  expect(field.value).toBe('hey @Bo ')
  expect(stored.at(-1)).toBe(`hey ${mentionToken(BO)} `)
})

test('editing shows a stored mention by name and keeps its id; cutting the name leaves plain text', async () => {
  const { user, field, stored } = renderField(`Thanks ${mentionToken(ANA)}!`)
  expect(field.value).toBe('Thanks @Ana!')
  await user.type(field, ' See you')
  expect(stored.at(-1)).toBe(`Thanks ${mentionToken(ANA)}! See you`)
  field.setSelectionRange(11, 11)
  await user.type(field, '{Backspace}', { initialSelectionStart: 11, initialSelectionEnd: 11 })
  expect(stored.at(-1)).toBe('Thanks @An! See you')
})

test('a text shows mentions of members highlighted by their name now, anyone else as plain text', () => {
  render(
    <MentionMembersList members={[{ id: ANA, name: 'Ana Renamed' }]}>
      <LinkedText text={`Hi ${mentionToken(ANA)} and ${mentionToken(BO)}, see https://example.com`} />
    </MentionMembersList>,
  )
  const mention = screen.getByText('@Ana Renamed')
  expect(mention).toHaveClass('mention')
  expect(screen.getByText(/and @someone, see/)).not.toHaveClass('mention')
  expect(screen.getByRole('link', { name: 'https://example.com' })).toBeInTheDocument()
})
