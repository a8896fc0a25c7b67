import { EmptyState } from '../../ui/empty-state.tsx'

const COMING = {
  wall: { title: 'Wall', text: 'Posts, comments and reactions arrive here in an upcoming update.' },
  events: { title: 'Events', text: 'Events with RSVPs arrive here in an upcoming update.' },
  polls: { title: 'Polls', text: 'Polls and voting arrive here in an upcoming update.' },
} as const

/** A tab whose content is built in a later issue: says so plainly instead of showing an empty list. */
export function ComingSoonTab({ tab }: { tab: keyof typeof COMING }) {
  const { title, text } = COMING[tab]
  return (
    <EmptyState title={title}>
      <p>{text}</p>
    </EmptyState>
  )
}
