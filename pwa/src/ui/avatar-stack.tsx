import type { MemberRef } from '@buble/shared/bubles'
import { Avatar } from './avatar.tsx'

interface AvatarStackProps {
  people: readonly MemberRef[]
  /** How many there are in all; those beyond `max` are counted in a '+N' badge. */
  total?: number
  max: number
  size?: number
  /** False: initials only, so a list of many cards does not fetch an image per person. */
  images?: boolean
}

/** Overlapping member avatars, the first `max` of them, then '+N' for the rest. */
export function AvatarStack({ people, total = people.length, max, size = 32, images = true }: AvatarStackProps) {
  const shown = people.slice(0, max)
  const more = Math.max(0, total - shown.length)
  return (
    <ul className="avatar-stack" aria-label="Members">
      {shown.map((person) => (
        <li key={person.id} title={person.name}>
          <Avatar name={person.name} url={images ? person.avatar_url : null} size={size} alt="" />
          <span className="visually-hidden">{person.name}</span>
        </li>
      ))}
      {more > 0 && (
        <li className="avatar avatar-more" style={{ width: size, height: size, fontSize: size * 0.34 }}>
          <span aria-hidden="true">{`+${more}`}</span>
          <span className="visually-hidden">{`and ${more} more`}</span>
        </li>
      )}
    </ul>
  )
}
