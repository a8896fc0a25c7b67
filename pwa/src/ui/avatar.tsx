import { avatarColour, initials } from '@buble/shared/text'
import { useSecureImage } from './use-secure-image.ts'

interface AvatarProps {
  name: string
  /** A stored avatar URL (fetched with the session) … */
  url?: string | null
  /** … or a local preview (an object URL of a picked file). */
  preview?: string | null
  size?: number
  /** The image's text alternative; '' where the name is written beside it. */
  alt?: string
}

export function Avatar({ name, url = null, preview = null, size = 96, alt = `${name}'s avatar` }: AvatarProps) {
  const loaded = useSecureImage(preview ? null : url)
  const src = preview ?? loaded
  const dimensions = { width: size, height: size, fontSize: size * 0.38 }
  if (src) return <img className="avatar" src={src} alt={alt} style={dimensions} />
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
