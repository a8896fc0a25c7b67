/** The only reader of import.meta.env (build-time settings, all optional). */

const env = import.meta.env

export const config = Object.freeze({
  /** Shown on the privacy page; set VITE_CONTACT_EMAIL when building for a deployment. */
  contactEmail: typeof env.VITE_CONTACT_EMAIL === 'string' && env.VITE_CONTACT_EMAIL ? env.VITE_CONTACT_EMAIL : null,
  /** The service worker exists only in a production build. */
  serviceWorker: env.PROD,
})
