import { can, type MemberActor } from '@buble/shared/permissions'
import { useState } from 'react'
import type { LocalBuble } from '../../data/bubles.ts'
import { type LocalPoll, useEventActions, usePolls } from '../../data/events.ts'
import { ContentList } from '../../ui/content-list.tsx'
import { ERROR_TEXTS } from '../../ui/error-texts.ts'
import { useMutedHere } from '../../ui/mention-members.tsx'
import { PollCard } from './poll-card.tsx'
import { PollFormModal, type PollValues } from './poll-form-modal.tsx'
import { POLL_TEXTS } from './poll-texts.ts'

/** Only what an edit changes is sent: an unchanged option list keeps every vote as it is. */
function changesOf(poll: LocalPoll, values: PollValues): Partial<PollValues> {
  const sameOptions = values.options.join('\n') === poll.options.map((option) => option.option_text).join('\n')
  return {
    ...(values.question !== poll.question && { question: values.question }),
    ...(!sameOptions && { options: values.options }),
  }
}

/** The polls tab: the buble's polls newest first, voting, results, and (for those who may) create and edit. */
export function PollsTab({ buble, actor }: { buble: LocalBuble; actor: MemberActor }) {
  const polls = usePolls(buble.id)
  const actions = useEventActions()
  const [modal, setModal] = useState<'create' | LocalPoll | null>(null)
  // Muted (issue 24 §2): the banner says until when; nothing new is offered meanwhile.
  const muted = useMutedHere() !== null
  const mayCreate = can(actor, 'poll.create') && !muted
  const close = () => setModal(null)

  return (
    <>
      <ContentList
        title="Polls"
        create={mayCreate ? { label: POLL_TEXTS.create, onClick: () => setModal('create') } : undefined}
        items={polls.rows}
        loadingLabel="Loading polls…"
        empty={{ title: POLL_TEXTS.empty, text: mayCreate ? POLL_TEXTS.emptyHint : POLL_TEXTS.emptyHintReader }}
      >
        {(poll) => (
          <PollCard
            poll={poll}
            actor={actor}
            memberCount={buble.member_count}
            actions={actions}
            onEdit={() => setModal(poll)}
          />
        )}
      </ContentList>
      {modal === 'create' && (
        <PollFormModal
          heading={POLL_TEXTS.create}
          submitLabel={POLL_TEXTS.create}
          busyLabel="Creating…"
          withSettings
          failure={ERROR_TEXTS.createPoll}
          onSubmit={(values) => actions.createPoll({ buble_id: buble.id, ...values })}
          onClose={close}
        />
      )}
      {modal !== null && modal !== 'create' && (
        <PollFormModal
          heading={POLL_TEXTS.edit}
          submitLabel="Save"
          busyLabel="Saving…"
          initial={{ question: modal.question, options: modal.options.map((option) => option.option_text) }}
          failure={ERROR_TEXTS.updatePoll}
          onSubmit={async (values) => {
            const changes = changesOf(modal, values)
            if (Object.keys(changes).length > 0) await actions.updatePoll(modal.id, changes)
          }}
          onClose={close}
        />
      )}
    </>
  )
}
