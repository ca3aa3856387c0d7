// The feed's ordering rules, driven through a scripted upstream: the cases a real upstream produces
// only by bad luck (a re-read that lags behind its event, an event the gateway already caught up on,
// a follower whose snapshot is older than what the others were sent).
import { PassThrough } from 'node:stream'
import { createParser } from 'eventsource-parser'
import type { FastifyBaseLogger } from 'fastify'
import pino from 'pino'
import t from 'tap'
import { systemClock } from '../../src/clock.js'
import { type FeedHost, OrderFeed, type OrderRead, type StatusClient } from '../../src/status-stream/feed.js'
import { DEFAULT_SUBSCRIPTION_TUNING, type StreamResponse } from '../../src/status-stream/subscription.js'
import type { Order, OrderStatus } from '../../src/upstream/schemas.js'

const UUID = '3f1c2d4e-5a6b-4c7d-8e9f-0a1b2c3d4e5f'

function read(status: OrderStatus, readAt = Date.now()): OrderRead {
  const body = {
    uuid: UUID,
    status,
    depositAmount: status === 'AWAITING_USER_DEPOSIT' ? null : 1,
  } as unknown as Order
  return { status: 200, body, raw: Buffer.from(JSON.stringify(body)), headers: {}, readAt }
}

/** Received frames per client, parsed back with the same library a browser-like client would use. */
function scripted(reads: Array<() => Promise<OrderRead>>) {
  const upstream = new PassThrough()
  const received = new Map<
    StatusClient,
    Array<{ event?: string; id?: string; data: Record<string, unknown> }>
  >()
  const ended = new Set<StatusClient>()
  const take = (client: StatusClient, frame: Buffer) => {
    const events = received.get(client) ?? []
    received.set(client, events)
    createParser({
      onEvent: (e) => events.push({ event: e.event, id: e.id, data: JSON.parse(e.data) }),
    }).feed(frame.toString())
  }
  let opened = () => {}
  const open = new Promise<void>((resolve) => {
    opened = resolve
  })
  const host: FeedHost = {
    clock: systemClock,
    tuning: { ...DEFAULT_SUBSCRIPTION_TUNING, pollMs: 60_000 },
    random: () => 0.5,
    log: pino({ level: 'silent' }) as unknown as FastifyBaseLogger,
    read: async () => {
      const next = reads.shift()
      if (!next) throw new Error('no more reads scripted')
      return next()
    },
    openUpstream: async () => {
      opened()
      return {
        statusCode: 200,
        headers: { 'content-type': 'text/event-stream' },
        body: upstream,
      } as unknown as StreamResponse
    },
    deliver: take,
    finish: (client, last) => {
      take(client, last)
      ended.add(client)
    },
    ended: () => {},
    counted: () => {},
  }
  const client = (): StatusClient => ({
    ip: '192.0.2.1',
    kind: 'status',
    res: undefined,
    rank: -1,
    group: undefined,
    released: false,
  })
  const send = (status: OrderStatus, id: number) =>
    upstream.write(
      `event: orders:status-update\nid: ${id}\nretry: 5000\ndata: ${JSON.stringify({ orderId: UUID, status, message: 'order update', updatedAt: new Date(id).toISOString() })}\n\n`,
    )
  return { host, client, received, ended, open, send, upstream }
}

/**
 * Lets every piece of pending work run: the scripted reads and the upstream stream are in memory, so
 * once a few turns of the event loop pass with nothing left queued, the feed has done all it will.
 * No real time is waited, and no outcome depends on the machine's speed.
 */
async function settle() {
  for (let turn = 0; turn < 20; turn++) await new Promise((resolve) => setImmediate(resolve))
}

t.test(
  'a re-read that lags behind its event is read again, so the event carries the order it announces',
  async (t) => {
    const s = scripted([
      async () => read('AWAITING_USER_DEPOSIT'), // the catch-up after the stream opened
      async () => read('AWAITING_USER_DEPOSIT'), // joined a read that started before the transition
      async () => read('AWAITING_USER_DEPOSIT_CONFIRMATIONS'),
    ])
    const feed = new OrderFeed(UUID, read('AWAITING_USER_DEPOSIT'), s.host)
    t.teardown(() => feed.close())
    const c = s.client()
    feed.join(c, read('AWAITING_USER_DEPOSIT'))
    await s.open
    await settle()
    s.send('AWAITING_USER_DEPOSIT_CONFIRMATIONS', 1000)
    await settle()
    t.same(s.received.get(c), [
      {
        event: 'orders:status-update',
        id: '1000',
        data: {
          orderId: UUID,
          status: 'AWAITING_USER_DEPOSIT_CONFIRMATIONS',
          message: 'order update',
          updatedAt: new Date(1000).toISOString(),
          order: read('AWAITING_USER_DEPOSIT_CONFIRMATIONS').body,
          event: 'orders:status-update',
        },
      },
    ])
  },
)

t.test('an event for a status the clients already have is not sent twice', async (t) => {
  const s = scripted([async () => read('AWAITING_USER_DEPOSIT_CONFIRMATIONS', 500)])
  const feed = new OrderFeed(UUID, read('AWAITING_USER_DEPOSIT'), s.host)
  t.teardown(() => feed.close())
  const c = s.client()
  feed.join(c, read('AWAITING_USER_DEPOSIT'))
  await s.open
  await settle() // the catch-up read found the deposit before the upstream's event came
  s.send('AWAITING_USER_DEPOSIT_CONFIRMATIONS', 1000)
  await settle()
  t.same(
    s.received.get(c)?.map((e) => [e.id, e.data.status]),
    [['500', 'AWAITING_USER_DEPOSIT_CONFIRMATIONS']],
  )
})

t.test('a follower whose snapshot is older than the feed is brought up to date as it joins', async (t) => {
  const s = scripted([
    async () => read('AWAITING_USER_DEPOSIT'),
    async () => read('AWAITING_USER_DEPOSIT_CONFIRMATIONS'),
  ])
  const feed = new OrderFeed(UUID, read('AWAITING_USER_DEPOSIT'), s.host)
  t.teardown(() => feed.close())
  const early = s.client()
  feed.join(early, read('AWAITING_USER_DEPOSIT'))
  await s.open
  await settle()
  s.send('AWAITING_USER_DEPOSIT_CONFIRMATIONS', 1000)
  await settle()

  const late = s.client()
  feed.join(late, read('AWAITING_USER_DEPOSIT', 900)) // its read finished before the transition
  const ahead = s.client()
  feed.join(ahead, read('AWAITING_USER_DEPOSIT_CONFIRMATIONS'))
  t.same(s.received.get(late), s.received.get(early), 'the same event the others got')
  t.notOk(s.received.get(ahead), 'nothing for a follower already there')
})

t.test('events are sent in the order they came, even when an earlier re-read is slower', async (t) => {
  let releaseSlow = () => {}
  const slow = new Promise<void>((resolve) => {
    releaseSlow = resolve
  })
  const s = scripted([
    async () => read('AWAITING_USER_DEPOSIT'),
    async () => {
      await slow
      return read('AWAITING_USER_DEPOSIT_CONFIRMATIONS')
    },
    async () => read('PROCESSING'),
    async () => read('COMPLETED'),
  ])
  const feed = new OrderFeed(UUID, read('AWAITING_USER_DEPOSIT'), s.host)
  const c = s.client()
  feed.join(c, read('AWAITING_USER_DEPOSIT'))
  await s.open
  await settle()
  s.send('AWAITING_USER_DEPOSIT_CONFIRMATIONS', 1000)
  s.send('PROCESSING', 2000)
  s.send('COMPLETED', 3000)
  await settle()
  t.notOk(s.received.get(c), 'nothing overtakes the slow first event')
  releaseSlow()
  await settle()
  t.same(
    s.received.get(c)?.map((e) => e.data.status),
    ['AWAITING_USER_DEPOSIT_CONFIRMATIONS', 'PROCESSING', 'COMPLETED'],
  )
  t.ok(s.ended.has(c), 'the terminal status ended the stream')
})

t.test('an event that does not match the documented shape makes the feed re-read the order', async (t) => {
  const s = scripted([async () => read('AWAITING_USER_DEPOSIT'), async () => read('PROCESSING', 4242)])
  const feed = new OrderFeed(UUID, read('AWAITING_USER_DEPOSIT'), s.host)
  t.teardown(() => feed.close())
  const c = s.client()
  feed.join(c, read('AWAITING_USER_DEPOSIT'))
  await s.open
  await settle()
  s.upstream.write('event: orders:status-update\nid: 1\ndata: {"state":"moved"}\n\n')
  await settle()
  t.same(
    s.received.get(c)?.map((e) => [e.id, e.data.status, (e.data.order as Order).status]),
    [['4242', 'PROCESSING', 'PROCESSING']],
  )
})
