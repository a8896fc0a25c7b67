/**
 * A simulated device of the chaos harness (issue 22 §4): one signed-in user's device database
 * (fake-indexeddb) with one or two tabs, each its own real `SyncEngine` over fetch through the
 * fault proxy, sharing one lock as the browser's Web Lock would. It makes random writes of every
 * kind the app queues (seeded), remembers each one it queued with its args, goes offline and back,
 * and signs in again when its token is refused. The engines' backoff waits are scaled down.
 */

import type { DeviceAuthor } from '@buble/shared/device-rows'
import { MUTATION_ARGS, type MutationInput, type MutationName } from '@buble/shared/mutations'
import { pollOptionId } from '@buble/shared/polls'
import { SyncEngine, type Timers } from '@buble/sync/client/engine'
import { createFetchTransport, TransportError } from '@buble/sync/client/transport'
import { v7 as uuidv7 } from 'uuid'
import { type DeviceDb, testDb } from '../device-db.ts'

/** Backoff waits are divided by this (the engine's 1 s … 60 s become 20 ms … 1.2 s). */
export const TIME_SCALE = 50

export interface ChaosUser {
  id: string
  name: string
  email: string
  password: string
}

/** A mutation a device queued, as it queued it. */
export interface SentMutation {
  id: string
  name: MutationName
  /** The args as the engine stored them (parsed by the catalogue's schema). */
  args: unknown
  /** The buble it writes to, when it writes to one. */
  bubleId: string | null
  device: number
  tab: number
}

export interface Tab {
  db: DeviceDb
  engine: SyncEngine
}

const REACTIONS = ['like', 'love', 'laugh', 'wow', 'sad', 'angry'] as const
const RSVPS = ['going', 'maybe', 'cant_go'] as const
const POLL_OPTIONS = ['Yes', 'No', 'Maybe']

/** Relative weights of the writes a device makes. */
const WEIGHTS: [MutationName, number][] = [
  ['buble.create', 3],
  ['buble.delete', 1],
  ['buble.leave', 1],
  ['invite.create', 1],
  ['profile.update', 2],
  ['unread.read', 3],
  ['post.create', 12],
  ['post.update', 4],
  ['post.delete', 3],
  ['comment.create', 8],
  ['comment.update', 3],
  ['comment.delete', 2],
  ['reaction.add', 5],
  ['reaction.remove', 3],
  ['event.create', 5],
  ['event.update', 3],
  ['event.delete', 2],
  ['event.rsvp', 5],
  ['poll.create', 5],
  ['poll.update', 2],
  ['poll.delete', 2],
  ['poll.vote', 5],
  ['poll.unvote', 2],
  ['chat.send', 12],
  ['chat.edit', 3],
  ['chat.delete', 2],
  ['chat.react', 4],
]
const TOTAL_WEIGHT = WEIGHTS.reduce((sum, [, weight]) => sum + weight, 0)

/** One promise chain per device: the tabs' rounds never overlap, as under the browser's Web Lock. */
function deviceLock() {
  let tail: Promise<unknown> = Promise.resolve()
  return <T>(fn: () => Promise<T>): Promise<T> => {
    const run = tail.then(fn, fn)
    tail = run.catch(() => {})
    return run
  }
}

export interface DeviceOptions {
  index: number
  user: ChaosUser
  token: string
  tabs: number
  /** Where the fault proxy listens. */
  baseUrl: string
  /** Signs the user in again (answers a new token). */
  signIn: (user: ChaosUser) => Promise<string>
  /** The device's own seeded choices (what to write, on which tab). */
  random: () => number
  /** The engines' backoff jitter: a stream of its own, so their timing-dependent draws leave the choices alone. */
  jitter: () => number
  /** A unique text for each write, so rows can be found and counted on the server. */
  text: () => string
}

export class ChaosDevice {
  readonly index: number
  readonly user: ChaosUser
  readonly actor: DeviceAuthor
  readonly tabs: Tab[] = []
  readonly sent: SentMutation[] = []
  token: string
  online = true
  /** Held offline by an episode (token expiry, removal): random toggles leave it alone. */
  pinned = false
  /** What the server answered this device's pushes, by status. */
  readonly answered = { applied: 0, duplicate: 0, rejected: 0 }
  /** 401s this device got, and how often it signed in again. */
  unauthorized = 0
  signIns = 0
  private refusedAtSignIn = 0
  /** Mutation names that failed to be queued (bad args: a harness bug), with the error. */
  readonly refusedLocally: string[] = []
  private readonly options: DeviceOptions
  private readonly dbName: string
  private readonly own = {
    bubles: [] as string[],
    posts: [] as { id: string; bubleId: string }[],
    comments: [] as { id: string; bubleId: string }[],
    events: [] as { id: string; bubleId: string }[],
    polls: [] as { id: string; bubleId: string }[],
    messages: [] as { id: string; bubleId: string }[],
  }
  private readonly timers = new Set<ReturnType<typeof setTimeout>>()
  private readonly exclusive: <T>(fn: () => Promise<T>) => Promise<T>
  private readonly engineTimers: Timers

  constructor(options: DeviceOptions) {
    this.options = options
    this.index = options.index
    this.user = options.user
    this.token = options.token
    this.actor = { id: options.user.id, name: options.user.name, email: options.user.email, avatar_url: null }
    this.dbName = `chaos-${uuidv7()}`
    const exclusive = deviceLock()
    const timers: Timers = {
      setTimeout: (fn, ms) => {
        const handle = setTimeout(
          () => {
            this.timers.delete(handle)
            fn()
          },
          Math.ceil(ms / TIME_SCALE),
        )
        this.timers.add(handle)
        return handle
      },
      clearTimeout: (handle) => {
        clearTimeout(handle as ReturnType<typeof setTimeout>)
        this.timers.delete(handle as ReturnType<typeof setTimeout>)
      },
    }
    this.exclusive = exclusive
    this.engineTimers = timers
    for (let tab = 0; tab < options.tabs; tab++) this.tabs.push(this.openTab())
  }

  /** A tab: the device database opened again, and an engine of its own over it. */
  private openTab(): Tab {
    const options = this.options
    const db = testDb(this.dbName)
    const transport = createFetchTransport({
      baseUrl: options.baseUrl,
      token: () => this.token,
      fetch: (input, init) =>
        this.online ? fetch(input, init) : Promise.reject(new TypeError('Failed to fetch (offline)')),
    })
    const engine = new SyncEngine({
      db,
      transport: {
        push: async (body) => {
          try {
            const answer = await transport.push(body)
            for (const result of answer.results) this.answered[result.status] += 1
            return answer
          } catch (err) {
            if (err instanceof TransportError && err.kind === 'auth') this.unauthorized += 1
            throw err
          }
        },
        pull: async (cursor, limit) => {
          try {
            return await transport.pull(cursor, limit)
          } catch (err) {
            if (err instanceof TransportError && err.kind === 'auth') this.unauthorized += 1
            throw err
          }
        },
      },
      actor: () => this.actor,
      exclusive: this.exclusive,
      intervalMs: 0,
      random: options.jitter,
      timers: this.engineTimers,
    })
    return { db, engine }
  }

  /**
   * Closes tab `tab` in the middle of whatever it does (its round fails on the closed database, as
   * a closed browser tab's transactions abort) and opens it again, syncing: a reload.
   */
  reload(tab: number): void {
    const old = this.tabs[tab]!
    old.engine.stop()
    old.db.close()
    this.tabs[tab] = this.openTab()
    void this.tabs[tab]!.engine.sync()
  }

  /** The device database (every tab's is the same one). */
  get db(): DeviceDb {
    return this.tabs[0]!.db
  }

  setOnline(value: boolean) {
    this.online = value
  }

  /** Queues one mutation on `tab` and remembers it; answers its id. */
  async queue<N extends MutationName>(
    name: N,
    input: MutationInput<N>,
    bubleId: string | null,
    tab = 0,
  ): Promise<string | null> {
    const args = MUTATION_ARGS[name].parse(input)
    try {
      const id = await this.tabs[tab]!.engine.mutate(name, input)
      this.sent.push({ id, name, args, bubleId, device: this.index, tab })
      return id
    } catch (err) {
      this.refusedLocally.push(`${name}: ${err instanceof Error ? err.message : String(err)}`)
      return null
    }
  }

  /** One random write of any kind, on a random tab, to what this device holds. */
  async randomWrite(): Promise<void> {
    const random = this.options.random
    const pick = <T>(list: readonly T[]): T | undefined =>
      list.length > 0 ? list[Math.floor(random() * list.length)] : undefined
    const tab = Math.floor(random() * this.tabs.length)
    let roll = random() * TOTAL_WEIGHT
    let name: MutationName = 'post.create'
    for (const [candidate, weight] of WEIGHTS) {
      roll -= weight
      if (roll < 0) {
        name = candidate
        break
      }
    }
    const bubles = await this.db.bubles.toArray()
    const buble = pick(bubles.map((row) => row.id))
    const text = this.options.text()
    const id = uuidv7()
    const removeOwn = <T extends { id: string }>(list: T[], item: T) => list.splice(list.indexOf(item), 1)
    const inBuble = async (table: 'posts' | 'events' | 'polls' | 'chat_messages') =>
      buble ? await this.db.table(table).where('buble_id').equals(buble).toArray() : []

    if (!buble || name === 'buble.create') {
      if (await this.queue('buble.create', { id, name: text.slice(0, 60) }, id, tab)) this.own.bubles.push(id)
      return
    }
    switch (name) {
      case 'buble.delete': {
        const target = pick(this.own.bubles.filter((own) => bubles.some((row) => row.id === own)))
        if (!target) break
        this.own.bubles.splice(this.own.bubles.indexOf(target), 1)
        await this.queue('buble.delete', { id: target }, target, tab)
        return
      }
      case 'buble.leave': {
        // Its owner may not leave a buble: refused, and the buble is back on the device.
        const target = pick(this.own.bubles.filter((own) => bubles.some((row) => row.id === own)))
        if (!target) break
        await this.queue('buble.leave', { buble_id: target }, target, tab)
        return
      }
      case 'invite.create':
        await this.queue('invite.create', { buble_id: buble }, buble, tab)
        return
      case 'profile.update':
        await this.queue('profile.update', { bio: text }, null, tab)
        return
      case 'unread.read':
        await this.queue(
          'unread.read',
          { buble_id: buble, contentType: pick(['wall', 'chat', 'events'] as const)! },
          buble,
          tab,
        )
        return
      case 'post.update':
      case 'post.delete': {
        const target = pick(this.own.posts)
        if (!target) break
        if (name === 'post.delete') removeOwn(this.own.posts, target)
        if (name === 'post.update')
          await this.queue('post.update', { id: target.id, content: text }, target.bubleId, tab)
        else await this.queue('post.delete', { id: target.id }, target.bubleId, tab)
        return
      }
      case 'comment.create':
      case 'reaction.add':
      case 'reaction.remove': {
        const post = pick(await inBuble('posts'))
        if (!post) break
        if (name === 'comment.create') {
          if (await this.queue('comment.create', { id, post_id: post.id, content: text }, buble, tab))
            this.own.comments.push({ id, bubleId: buble })
        } else await this.queue(name, { post_id: post.id, reactionType: pick(REACTIONS)! }, buble, tab)
        return
      }
      case 'comment.update':
      case 'comment.delete': {
        const target = pick(this.own.comments)
        if (!target) break
        if (name === 'comment.delete') {
          removeOwn(this.own.comments, target)
          await this.queue('comment.delete', { id: target.id }, target.bubleId, tab)
        } else await this.queue('comment.update', { id: target.id, content: text }, target.bubleId, tab)
        return
      }
      case 'event.create':
        if (
          await this.queue(
            'event.create',
            {
              id,
              buble_id: buble,
              title: text,
              event_time: new Date(Date.UTC(2030, 0, 1 + Math.floor(random() * 300), 18)).toISOString(),
            },
            buble,
            tab,
          )
        )
          this.own.events.push({ id, bubleId: buble })
        return
      case 'event.update':
      case 'event.delete': {
        const target = pick(this.own.events)
        if (!target) break
        if (name === 'event.delete') {
          removeOwn(this.own.events, target)
          await this.queue('event.delete', { id: target.id }, target.bubleId, tab)
        } else await this.queue('event.update', { id: target.id, title: text }, target.bubleId, tab)
        return
      }
      case 'event.rsvp': {
        const event = pick(await inBuble('events'))
        if (!event) break
        await this.queue('event.rsvp', { event_id: event.id, status: pick(RSVPS)! }, buble, tab)
        return
      }
      case 'poll.create':
        if (
          await this.queue(
            'poll.create',
            { id, buble_id: buble, question: `${text}?`, options: POLL_OPTIONS },
            buble,
            tab,
          )
        )
          this.own.polls.push({ id, bubleId: buble })
        return
      case 'poll.update':
      case 'poll.delete': {
        const target = pick(this.own.polls)
        if (!target) break
        if (name === 'poll.delete') {
          removeOwn(this.own.polls, target)
          await this.queue('poll.delete', { id: target.id }, target.bubleId, tab)
        } else await this.queue('poll.update', { id: target.id, question: `${text}?` }, target.bubleId, tab)
        return
      }
      case 'poll.vote':
      case 'poll.unvote': {
        const poll = pick(await inBuble('polls'))
        if (!poll) break
        if (name === 'poll.unvote') await this.queue('poll.unvote', { poll_id: poll.id }, buble, tab)
        else
          await this.queue(
            'poll.vote',
            { poll_id: poll.id, poll_option_id: pollOptionId(poll.id, pick(POLL_OPTIONS)!) },
            buble,
            tab,
          )
        return
      }
      case 'chat.edit':
      case 'chat.delete': {
        const target = pick(this.own.messages)
        if (!target) break
        if (name === 'chat.delete') {
          removeOwn(this.own.messages, target)
          await this.queue('chat.delete', { id: target.id }, target.bubleId, tab)
        } else await this.queue('chat.edit', { id: target.id, content: text }, target.bubleId, tab)
        return
      }
      case 'chat.react': {
        const message = pick(await inBuble('chat_messages'))
        if (!message) break
        await this.queue('chat.react', { message_id: message.id, reactionType: pick(REACTIONS)! }, buble, tab)
        return
      }
      default:
        break
    }
    // chat.send, post.create, and any write with nothing to act on yet.
    if (name === 'chat.send' || random() < 0.5) {
      if (await this.queue('chat.send', { id, buble_id: buble, content: text }, buble, tab))
        this.own.messages.push({ id, bubleId: buble })
      return
    }
    if (await this.queue('post.create', { id, buble_id: buble, content: text }, buble, tab))
      this.own.posts.push({ id, bubleId: buble })
  }

  /** Starts a round on a random tab without waiting for it. */
  poke(): void {
    const tab = this.tabs[Math.floor(this.options.random() * this.tabs.length)]!
    void tab.engine.sync()
  }

  /** Signs in again when a tab was signed out (a 401): the queue then replays under the new token. */
  async signInIfNeeded(): Promise<boolean> {
    const states = await Promise.all(this.tabs.map(async (tab) => (await tab.engine.status()).state))
    // Refused since the last sign-in: a round started since may have hidden the tab's signed-out state.
    if (!states.includes('signed-out') && this.unauthorized === this.refusedAtSignIn) return false
    this.refusedAtSignIn = this.unauthorized
    this.token = await this.options.signIn(this.user)
    this.signIns += 1
    return true
  }

  /** One awaited round on every tab, in turn; signs in again first when needed. */
  async syncAll(): Promise<void> {
    await this.signInIfNeeded()
    for (const tab of this.tabs) await tab.engine.sync()
    if (await this.signInIfNeeded()) for (const tab of this.tabs) await tab.engine.sync()
  }

  /** Mutations still queued on the device (pending or awaiting the pull that retires them). */
  outboxSize(): Promise<number> {
    return this.db.outbox.count()
  }

  async close(): Promise<void> {
    for (const tab of this.tabs) tab.engine.stop()
    await Promise.all(this.tabs.map((tab) => tab.engine.settled()))
    for (const handle of this.timers) clearTimeout(handle)
    this.timers.clear()
    for (const tab of this.tabs) tab.db.close()
  }
}
