import { avatarColour, initials } from '@buble/shared/text'
import { useSecureImage } from './use-secure-image.ts'

interface AvatarProps {
  name: string
  /** A stored avatar URL (fetched with the session) … */
  url?: string | null
  /** … or a local preview (an object URL of a picked file). */
  preview?: string | null
  size?: number
}

export function Avatar({ name, url = null, preview = null, size = 96 }: AvatarProps) {
  const loaded = useSecureImage(preview ? null : url)
  const src = preview ?? loaded
  const dimensions = { width: size, height: size, fontSize: size * 0.38 }
  if (src) return <img className="avatar" src={src} alt={`${name}'s avatar`} style={dimensions} />
  return (
    <span
      className="avatar avatar-initials"
      style={{ ...dimensions, background: avatarColour(name) }}
      aria-hidden="true"
    >
      {initials(name)}
    </span>
  )
}
