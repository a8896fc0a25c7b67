import { fireEvent, render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { useState } from 'react'
import { expect, test } from 'vitest'
import { ConfirmDialog } from './confirm-dialog.tsx'
import { FormModal } from './form-modal.tsx'
import { Modal } from './modal.tsx'

function Opener({ kind, removeOpener = false }: { kind: 'modal' | 'confirm' | 'form'; removeOpener?: boolean }) {
  const [open, setOpen] = useState(false)
  const [gone, setGone] = useState(false)
  const close = () => {
    setOpen(false)
    if (removeOpener) setGone(true)
  }
  return (
    <main>
      <button type="button">Elsewhere</button>
      <section>
        {!gone && (
          <button type="button" onClick={() => setOpen(true)}>
            Open it
          </button>
        )}
      </section>
      {open && kind === 'modal' && (
        <Modal title="Plain" onClose={close}>
          <button type="button">Inside</button>
        </Modal>
      )}
      {open && kind === 'confirm' && (
        <ConfirmDialog
          title="Sure?"
          confirmLabel="Do it"
          busyLabel="Doing…"
          busy={false}
          onConfirm={close}
          onCancel={close}
        >
          <p>Really.</p>
        </ConfirmDialog>
      )}
      {open && kind === 'form' && (
        <FormModal
          title="Form"
          submitLabel="Save"
          busyLabel="Saving…"
          failure="Failed"
          onSubmit={async () => true}
          onClose={close}
        >
          <input aria-label="Name" />
        </FormModal>
      )}
    </main>
  )
}

test.each([
  ['modal', 'Plain', 'Escape'],
  ['confirm', 'Sure?', 'Cancel'],
  ['form', 'Form', 'Save'],
] as const)('closing a %s dialog gives the focus back to the button that opened it', async (kind, title, how) => {
  const user = userEvent.setup()
  render(<Opener kind={kind} />)
  const opener = screen.getByRole('button', { name: 'Open it' })
  await user.click(opener)
  const dialog = screen.getByRole('dialog', { name: title })
  expect(dialog.contains(document.activeElement)).toBe(true)
  if (how === 'Escape') await user.keyboard('{Escape}')
  else await user.click(screen.getByRole('button', { name: how }))
  expect(screen.queryByRole('dialog')).toBeNull()
  expect(opener).toHaveFocus()
})

test('a click that did not focus its button (Safari) still counts as the opener', async () => {
  render(<Opener kind="modal" />)
  const opener = screen.getByRole('button', { name: 'Open it' })
  // As Safari does: the pointer goes down on the button, the focus stays on the page, the click opens.
  fireEvent.pointerDown(opener)
  ;(document.activeElement as HTMLElement | null)?.blur()
  fireEvent.click(opener)
  expect(screen.getByRole('dialog', { name: 'Plain' })).toBeInTheDocument()
  fireEvent.keyDown(screen.getByRole('dialog'), { key: 'Escape' })
  expect(opener).toHaveFocus()
})

test('an opener gone when the dialog closes (the deleted item’s own button) leaves the focus in the page, not lost', async () => {
  const user = userEvent.setup()
  render(<Opener kind="confirm" removeOpener />)
  await user.click(screen.getByRole('button', { name: 'Open it' }))
  await user.click(screen.getByRole('button', { name: 'Do it' }))
  expect(screen.queryByRole('button', { name: 'Open it' })).toBeNull()
  expect(document.activeElement).toBe(screen.getByRole('main'))
})
