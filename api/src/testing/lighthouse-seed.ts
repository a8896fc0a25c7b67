/**
 * Fills a running server with what the Lighthouse check loads (scripts/lighthouse.mjs): a verified
 * owner with an avatar, a buble with members, posts (one with an image, comments, reactions), events
 * and polls. Only through the HTTP API, as a person would, so the pages measured are the real ones.
 *
 * As a program: `node --import tsx api/src/testing/lighthouse-seed.ts <server url> <its DATA_DIR>`
 * prints `{"email", "password", "bubleSlug", "bubleId"}`. The DATA_DIR is where the server files its
 * mail when no SMTP_URL is set: the owner's verification link is read from there.
 */

import { realpathSync } from 'node:fs'
import { readdir, readFile } from 'node:fs/promises'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import sharp from 'sharp'

export const SEED_PASSWORD = 'Lighthouse-harbour-42'

export interface Seeded {
  email: string
  password: string
  bubleSlug: string
  bubleId: string
}

type Json = Record<string, unknown>

function client(baseUrl: string) {
  return async function call<T = Json>(method: string, url: string, token?: string, body?: unknown): Promise<T> {
    const isForm = body instanceof FormData
    const res = await fetch(new URL(url, baseUrl), {
      method,
      headers: {
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(body !== undefined && !isForm ? { 'content-type': 'application/json' } : {}),
      },
      body: body === undefined ? undefined : isForm ? body : JSON.stringify(body),
    })
    const text = await res.text()
    if (!res.ok) throw new Error(`${method} ${url} answered ${res.status}: ${text.slice(0, 300)}`)
    return (text ? JSON.parse(text) : {}) as T
  }
}

/** The token of the newest verification mail sent to `email`, from the server's mail folder. */
async function verificationToken(dataDir: string, email: string): Promise<string> {
  const dir = path.join(dataDir, 'mail')
  for (const name of (await readdir(dir)).sort().reverse()) {
    // Quoted-printable: soft line breaks and =3D must be undone before the link can be read.
    const mail = (await readFile(path.join(dir, name), 'utf8'))
      .replace(/=\r?\n/g, '')
      .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)))
    if (!mail.toLowerCase().includes(email)) continue
    const token = mail.match(/verify-email\?token=([\w-]+)/)?.[1]
    if (token) return token
  }
  throw new Error(`no verification mail for ${email} in ${dir}`)
}

/** A plain picture of the given size, as an upload would bring. */
const picture = (width: number, height: number, colour: string) =>
  sharp({ create: { width, height, channels: 3, background: colour } })
    .png()
    .toBuffer()

async function upload(call: ReturnType<typeof client>, url: string, token: string, bytes: Buffer, fields = {}) {
  const form = new FormData()
  form.append('file', new Blob([new Uint8Array(bytes)], { type: 'image/png' }), 'picture.png')
  for (const [key, value] of Object.entries(fields)) form.append(key, String(value))
  return (await call<{ url: string }>('POST', url, token, form)).url
}

export async function seedLighthouse(baseUrl: string, dataDir: string): Promise<Seeded> {
  const call = client(baseUrl)
  const register = async (name: string, email: string) =>
    (
      await call<{ access_token: string }>('POST', '/api/auth/register', undefined, {
        name,
        email,
        password: SEED_PASSWORD,
      })
    ).access_token

  // The owner: verified (no banner) and with an avatar, as a settled account looks.
  const email = 'ada@lighthouse.example.com'
  await register('Ada Lovelace', email)
  await call('POST', '/api/auth/verify-email', undefined, { token: await verificationToken(dataDir, email) })
  const { access_token: owner } = await call<{ access_token: string }>('POST', '/api/auth/login', undefined, {
    email,
    password: SEED_PASSWORD,
  })
  const avatar = await upload(call, '/api/uploads/avatar', owner, await picture(256, 256, '#3a7bd5'))
  await call('PUT', '/api/users/profile', owner, { avatar_url: avatar, bio: 'Reads on Tuesdays.' })

  const buble = await call<{ id: string; slug: string }>('POST', '/api/bubles', owner, { name: 'Harbour Book Club' })

  // Members who joined by invite code, each of whom writes, votes and answers.
  const members: string[] = []
  for (const name of ['Grace Hopper', 'Alan Turing', 'Katherine Johnson', 'Edsger Dijkstra']) {
    const token = await register(name, `${name.toLowerCase().replace(/\W+/g, '.')}@lighthouse.example.com`)
    const { code } = await call<{ code: string }>('POST', `/api/bubles/${buble.id}/invites`, owner, {})
    await call('POST', `/api/bubles/invites/${code}/accept`, token)
    members.push(token)
  }
  const everyone = [owner, ...members]

  const image = await upload(call, '/api/uploads/image', owner, await picture(800, 600, '#e0a458'), {
    buble_id: buble.id,
  })
  const posts: string[] = []
  for (let i = 0; i < 14; i++) {
    // The image is the owner's upload, and only its uploader may attach it (decision 58).
    const author = i === 13 ? owner : everyone[i % everyone.length]!
    const post = await call<{ id: string }>('POST', `/api/wall/${buble.id}/posts`, author, {
      content:
        i === 13
          ? 'The harbour at dawn, before our walk to the library.'
          : `Chapter ${i + 1}: what did everyone make of the ending? I thought the second half dragged a little, but the last pages made up for it.`,
      ...(i === 13 ? { image_url: image } : {}),
    })
    posts.push(post.id)
  }
  // The newest posts, on top of the wall, carry the conversation.
  for (const postId of posts.slice(-4)) {
    for (const [j, token] of everyone.entries()) {
      await call('POST', `/api/wall/posts/${postId}/reactions`, token, { reactionType: j % 2 ? 'love' : 'like' })
      if (j < 3) await call('POST', `/api/wall/posts/${postId}/comments`, token, { content: `Agreed, ${j + 1}!` })
    }
  }

  const day = 24 * 60 * 60 * 1000
  for (const [i, title] of [
    'Monthly meeting',
    'Author talk',
    'Library walk',
    'Swap evening',
    'Summer picnic',
  ].entries()) {
    const event = await call<{ id: string }>('POST', `/api/bubles/${buble.id}/events`, owner, {
      title,
      description: `${title} of the Harbour Book Club. Bring the book and a friend.`,
      location: 'Central Library, Room 2',
      event_time: new Date(Date.now() + (i + 2) * 7 * day).toISOString(),
    })
    for (const [j, token] of members.entries()) {
      await call('POST', `/api/events/${event.id}/rsvp`, token, { status: ['going', 'maybe', 'cant_go'][j % 3] })
    }
  }

  for (const [question, options] of [
    ['Next book?', ['Middlemarch', 'The Left Hand of Darkness', 'Beloved']],
    ['Which evening suits you?', ['Monday', 'Tuesday', 'Thursday']],
    ['Snacks at the meeting?', ['Yes', 'No']],
  ] as const) {
    const poll = await call<{ id: string; options: { id: string }[] }>('POST', `/api/bubles/${buble.id}/polls`, owner, {
      question,
      options,
    })
    for (const [j, token] of everyone.entries()) {
      await call('POST', `/api/polls/${poll.id}/vote`, token, {
        poll_option_id: poll.options[j % poll.options.length]!.id,
      })
    }
  }

  return { email, password: SEED_PASSWORD, bubleSlug: buble.slug, bubleId: buble.id }
}

// Started as a program by scripts/lighthouse.mjs.
if (process.argv[1] && realpathSync(fileURLToPath(import.meta.url)) === realpathSync(process.argv[1])) {
  const [baseUrl, dataDir] = process.argv.slice(2)
  if (!baseUrl || !dataDir) {
    process.stderr.write('usage: lighthouse-seed.ts <server url> <DATA_DIR>\n')
    process.exit(2)
  }
  seedLighthouse(baseUrl, dataDir).then(
    (seeded) => process.stdout.write(`${JSON.stringify(seeded)}\n`),
    (err) => {
      process.stderr.write(`seeding failed: ${err instanceof Error ? err.message : String(err)}\n`)
      process.exit(1)
    },
  )
}
