// The order lifecycle driven through the control object: fields set at each step, one event per
// transition, refused transitions, expiry by clock (advanced, lazy on reads, and on the sweep), and
// the demo walk, on a fake clock the tests move.
import t from 'tap'
import { getAddress } from 'viem'
import { Catalog } from '../../src/sandbox/catalog/catalog.js'
import { createClock } from '../../src/sandbox/clock.js'
import { AUTO_STEP_MS, AutoAdvance } from '../../src/sandbox/orders/auto-advance.js'
import { OrderStore } from '../../src/sandbox/orders/store.js'
import type { CreatedOrder } from '../../src/sandbox/resources.js'
import { orderDetailsSchema } from '../../src/sandbox/resources.js'
import { fakeClock } from '../helpers/clock.js'
import { startSandbox } from '../helpers/sandbox.js'
import { events, readRaw } from '../helpers/sse.js'
import { call, createOrder, settledBefore } from './http.js'

const statuses = (text: string) => events(text).map((event) => JSON.parse(event.data).status)

t.test('deposit → confirm → progress → complete sets the documented fields', async (t) => {
  const { url, control } = await startSandbox(t)
  const order = await createOrder(url, { intendedAmount: 2 })

  const deposited = control.deposit(order.uuid)
  t.equal(deposited.status, 'AWAITING_USER_DEPOSIT_CONFIRMATIONS')
  t.equal(deposited.depositAmount, 2, 'defaults to the intended deposit')
  t.match(deposited.senderDepositTx, /^0x[0-9a-f]{64}$/, 'an Ethereum tx hash for an ETH deposit')
  t.ok((deposited.depositEstSettleAmount ?? 0) > 40, 'estimated settle amount recomputed from the deposit')
  t.equal(deposited.settleAmount, null)

  t.equal(control.confirm(order.uuid).status, 'PROCESSING')
  const partial = control.progress(order.uuid, 10)
  t.equal(partial.status, 'PROCESSING')
  t.equal(partial.settleAmount, 10)

  const done = control.complete(order.uuid)
  t.equal(done.status, 'COMPLETED')
  t.equal(done.settleAmount, deposited.depositEstSettleAmount, 'final settle amount')
  t.ok(done.exchangeWithdrawTx && done.exchangeWithdrawTx.length > 60)
  t.equal(
    done.exchangeWithdrawTxLink,
    `https://solscan.io/tx/${done.exchangeWithdrawTx}`,
    'explorer of the settle chain',
  )

  const read = orderDetailsSchema.strict().parse((await call(url, `/v1/orders/${order.uuid}`)).body)
  t.strictSame(read, done, 'GET shows what the control returned')
})

t.test('deposit takes an explicit amount and hash; complete an explicit final amount', async (t) => {
  const { url, control } = await startSandbox(t)
  const order = await createOrder(url, { intendedAmount: 0 })
  const deposited = control.deposit(order.uuid, { amount: 0.5, txHash: '0xabc' })
  t.equal(deposited.depositAmount, 0.5)
  t.equal(deposited.senderDepositTx, '0xabc')
  control.confirm(order.uuid)
  t.equal(control.complete(order.uuid, 7.25).settleAmount, 7.25)
  const zero = await createOrder(url, { intendedAmount: 0 })
  t.equal(
    control.deposit(zero.uuid).depositAmount,
    zero.minimalAmount,
    'no usable intent: the minimum is deposited',
  )
})

t.test('each transition emits exactly one event to the order’s streams', async (t) => {
  const { url, control } = await startSandbox(t)
  const order = await createOrder(url)
  const stream = await readRaw(`${url}/orders/${order.uuid}/status-stream`)
  t.teardown(() => stream.close())
  await stream.until('the opening empty line', (text) => text === '\n')
  control.deposit(order.uuid)
  control.confirm(order.uuid)
  control.progress(order.uuid, 1)
  control.progress(order.uuid, 2)
  control.complete(order.uuid)
  // Ending the stream after the transitions: anything they sent arrives before its end.
  control.closeStreams(order.uuid)
  const { text } = await stream.ended
  t.same(statuses(text), ['AWAITING_USER_DEPOSIT_CONFIRMATIONS', 'PROCESSING', 'COMPLETED'])
})

t.test('transitions the state does not allow throw a clear error and change nothing', async (t) => {
  const { url, control } = await startSandbox(t)
  const order = await createOrder(url)
  t.throws(
    () => control.confirm(order.uuid),
    /Cannot confirm order .*: it is AWAITING_USER_DEPOSIT; confirm needs/,
  )
  t.throws(() => control.complete(order.uuid), /Cannot complete/)
  t.throws(() => control.progress(order.uuid, 1), /Cannot progress/)
  control.deposit(order.uuid)
  t.throws(() => control.deposit(order.uuid), /Cannot deposit .* it is AWAITING_USER_DEPOSIT_CONFIRMATIONS/)
  control.fail(order.uuid)
  t.throws(() => control.fail(order.uuid), /it is ERROR \(terminal\)/)
  t.throws(() => control.deposit('00000000-0000-4000-8000-000000000000'), /Unknown order/)
  t.equal(control.order(order.uuid)?.status, 'ERROR')
  t.equal(control.order('nope'), undefined)
})

t.test('fail moves any non-terminal order to ERROR', async (t) => {
  const { url, control } = await startSandbox(t)
  const waiting = await createOrder(url)
  const confirming = await createOrder(url)
  const processing = await createOrder(url)
  control.deposit(confirming.uuid)
  control.deposit(processing.uuid)
  control.confirm(processing.uuid)
  for (const order of [waiting, confirming, processing]) t.equal(control.fail(order.uuid).status, 'ERROR')
  t.same(
    control.orders().map((order) => order.status),
    ['ERROR', 'ERROR', 'ERROR'],
  )
})

t.test('advanceTime past the timeout expires unfunded orders to TIMED_OUT, with the event', async (t) => {
  const { url, control } = await startSandbox(t)
  const unfunded = await createOrder(url)
  const funded = await createOrder(url)
  control.deposit(funded.uuid)
  const stream = await readRaw(`${url}/orders/${unfunded.uuid}/status-stream`)
  t.teardown(() => stream.close())
  await stream.until('the opening empty line', (text) => text === '\n')
  control.advanceTime(29 * 60_000)
  t.equal(control.order(unfunded.uuid)?.status, 'AWAITING_USER_DEPOSIT', 'not before the timeout')
  control.advanceTime(60_000)
  t.equal(control.order(unfunded.uuid)?.status, 'TIMED_OUT')
  t.equal(
    control.order(funded.uuid)?.status,
    'AWAITING_USER_DEPOSIT_CONFIRMATIONS',
    'a deposit stops the clock',
  )
  await stream.until('the TIMED_OUT event', (text) => statuses(text).includes('TIMED_OUT'))
  const [event] = events(stream.text())
  const id = Number(event?.id)
  t.ok(id >= Date.parse(unfunded.timeout) && id <= control.now(), 'updatedAt is the sandbox time of expiry')
  t.throws(() => control.deposit(unfunded.uuid), /TIMED_OUT \(terminal\)/)
  t.throws(() => control.advanceTime(-1), /forward/)
})

t.test('expiry also happens lazily on a read, by the injected clock', async (t) => {
  const clock = fakeClock()
  clock.jump(Date.parse('2030-01-01T00:00:00Z') - clock.now())
  const { url } = await startSandbox(t, { clock })
  const order = await createOrder(url)
  t.equal(order.createdAt, '2030-01-01T00:00:00.000Z', 'the injected clock dates orders')
  // A jump runs no timer: the sweep has not run, the read expires it.
  clock.jump(31 * 60_000)
  const read = orderDetailsSchema.parse((await call(url, `/v1/orders/${order.uuid}`)).body)
  t.equal(read.status, 'TIMED_OUT')
})

t.test('and on the sweep, without any read', async (t) => {
  const clock = fakeClock()
  const { url, control } = await startSandbox(t, { clock })
  const order = await createOrder(url)
  const stream = await readRaw(`${url}/orders/${order.uuid}/status-stream`)
  t.teardown(() => stream.close())
  await stream.until('the opening empty line', (text) => text === '\n')
  clock.jump(30 * 60_000)
  const expired = stream.until('the TIMED_OUT event', (text) => statuses(text).includes('TIMED_OUT'))
  t.notOk(await settledBefore(url, expired), 'past the timeout, nothing until the sweep runs')
  clock.advance(1000)
  await expired
  t.pass('the sweep expired it')
  t.equal(control.openStreams(order.uuid), 1)
})

t.test('demo mode walks each new order to COMPLETED on the clock, a step per stepMs', async (t) => {
  const clock = fakeClock()
  const { url, control } = await startSandbox(t, { clock, autoAdvance: { stepMs: 30 } })
  const order = await createOrder(url)
  const stream = await readRaw(`${url}/orders/${order.uuid}/status-stream`)
  t.teardown(() => stream.close())
  await stream.until('the opening empty line', (text) => text === '\n')
  clock.advance(29)
  t.equal(control.order(order.uuid)?.status, 'AWAITING_USER_DEPOSIT', 'not before the first step')
  clock.advance(1)
  t.equal(control.order(order.uuid)?.status, 'AWAITING_USER_DEPOSIT_CONFIRMATIONS', 'deposited')
  clock.advance(30)
  t.equal(control.order(order.uuid)?.status, 'PROCESSING', 'confirmed')
  clock.advance(30)
  t.equal(
    control.order(order.uuid)?.settleAmount,
    (control.order(order.uuid)?.depositEstSettleAmount ?? 0) / 2,
    'half settled',
  )
  clock.advance(30)
  await stream.until('the COMPLETED event', (text) => statuses(text).includes('COMPLETED'))
  t.same(statuses(stream.text()), ['AWAITING_USER_DEPOSIT_CONFIRMATIONS', 'PROCESSING', 'COMPLETED'])
  t.equal(control.order(order.uuid)?.status, 'COMPLETED')
})

t.test('the demo walk stops for an order that failed meanwhile, and on stop()', async (t) => {
  const clock = fakeClock()
  const seen: string[] = []
  const catalog = new Catalog()
  const store = new OrderStore(createClock(clock), catalog, {
    transition: (order: CreatedOrder) => seen.push(order.status),
  })
  const auto = new AutoAdvance(store, clock)
  const make = () =>
    store.create({
      deposit: catalog.listing(2)!,
      settle: catalog.listing(3)!,
      receivingAddress: getAddress('0xd8da6bf26964af9d7eed9e03e53415d37aa96045'),
      intendedAmount: 1,
      intendedIsDeposit: true,
      userId: null,
    })
  const failed = make()
  auto.start(failed.uuid)
  store.fail(failed.uuid)
  const stopped = make()
  auto.start(stopped.uuid)
  auto.stop()
  clock.advance(4 * AUTO_STEP_MS)
  t.same(seen, ['ERROR'])
  t.equal(store.find(stopped.uuid)?.status, 'AWAITING_USER_DEPOSIT')
  t.equal(clock.pending(), 0, 'no step left pending')
})
