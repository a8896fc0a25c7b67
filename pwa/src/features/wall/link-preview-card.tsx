import type { Post } from '@buble/shared/wall'
import { useSecureImage } from '../../ui/use-secure-image.ts'

type Preview = Pick<Post, 'buble_id' | 'link_url' | 'link_title' | 'link_description' | 'link_image'>

const SECURE_PREFIX = '/api/uploads/secure/'

/** The site's name as a reader recognises it: 'example.com' for https://www.example.com/a. */
export function domainOf(url: string): string | null {
  try {
    const { protocol, hostname } = new URL(url)
    if (protocol !== 'http:' && protocol !== 'https:') return null
    return hostname.replace(/^www\./, '')
  } catch {
    return null
  }
}

/**
 * The preview the server fetched for a post's link. An image on another site is not shown: the
 * CSP allows images from Buble itself only (img-src 'self' data: blob:), and loading it would tell
 * that site who reads the post. The card shows the site's domain in its place. An image the server
 * stored with Buble's uploads is shown.
 */
export function LinkPreviewCard({ preview }: { preview: Preview }) {
  const url = preview.link_url
  const domain = url ? domainOf(url) : null
  const stored = preview.link_image?.startsWith(SECURE_PREFIX) ? preview.link_image : null
  const image = useSecureImage(stored, preview.buble_id)
  if (!url || !domain) return null
  return (
    <a className="link-card" href={url} target="_blank" rel="noopener noreferrer">
      {image && <img className="link-card-image" src={image} alt="" />}
      <span className="link-card-text">
        <span className="link-card-domain">{domain}</span>
        <span className="link-card-title">{preview.link_title || url}</span>
        {preview.link_description && <span className="link-card-description">{preview.link_description}</span>}
      </span>
    </a>
  )
}
