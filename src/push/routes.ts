// The Web Push routes: the public key a page subscribes with, and subscribing an order's events to a
// browser's push subscription or ending that. Anyone holding an order's uuid may subscribe, as anyone
// holding it may follow its stream.
import type { FastifyInstance } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { BODY_FAILURES, UPSTREAM_FAILURES } from '../edge/route-answers.js'
import { orderParams } from '../orders/schemas.js'
import { problems } from '../problems.js'
import { type EndpointRules, admittedAddresses, endpointFormRefusal } from './endpoint-guard.js'
import { publicKeyBody, pushSubscribedBody, pushSubscriptionBody, unsubscribeQuery } from './schemas.js'
import type { PushSink } from './sink.js'
import { type PushSubscriptions, subscriptionIdOf } from './subscriptions.js'

export interface PushRoutesOptions {
  publicKey: string
  maxPerOrder: number
  rules: EndpointRules
  store: PushSubscriptions
  sink: PushSink
  /** False while the store's Redis is away: nothing is promised that could not be kept. */
  storeUp: () => boolean
}

const NOT_TRUSTED = 'must name a host that resolves to public addresses only'
const SUBSCRIPTION_FIELDS = ['endpoint', 'expirationTime', 'keys'] as const

export async function pushRoutes(app: FastifyInstance, opts: PushRoutesOptions) {
  const routes = app.withTypeProvider<ZodTypeProvider>()
  const storeUp = () => {
    if (!opts.storeUp()) throw problems.pushSubscriptionsUnavailable()
  }

  routes.get(
    '/v1/push/public-key',
    {
      schema: {
        summary: 'The Web Push public key',
        description:
          'The VAPID public key (base64url) a page passes to `PushManager.subscribe` as `applicationServerKey`.',
        tags: ['push'],
        operationId: 'getPushPublicKey',
      },
      config: {
        group: 'orders',
        answers: { success: { 200: { description: 'The public key.', body: publicKeyBody } }, problems: [] },
      },
    },
    async () => ({ publicKey: opts.publicKey }),
  )

  routes.post(
    '/v1/orders/:uuid/push-subscriptions',
    {
      schema: {
        params: orderParams,
        body: pushSubscriptionBody,
        summary: "Push an order's events to a browser",
        description:
          'Every later event of the order is pushed to this subscription (at once its status, when the order has already ended); the order is watched. The same endpoint again replaces its keys. The endpoint must be `https:` and resolve to public addresses.',
        tags: ['push'],
        operationId: 'subscribeOrderPush',
      },
      config: {
        group: 'orders',
        invalidCodes: {
          uuid: 'INVALID_ORDER_ID',
          ...Object.fromEntries(SUBSCRIPTION_FIELDS.map((f) => [f, 'INVALID_PUSH_SUBSCRIPTION'])),
        },
        answers: {
          success: {
            201: { description: 'Subscribed: the order and its status now.', body: pushSubscribedBody },
          },
          problems: [
            'INVALID_ORDER_ID',
            'INVALID_PUSH_SUBSCRIPTION',
            ...BODY_FAILURES,
            'ORDER_NOT_FOUND',
            'TOO_MANY_SUBSCRIPTIONS',
            ...UPSTREAM_FAILURES,
          ],
        },
      },
    },
    async (request, reply) => {
      const { uuid } = request.params
      const { endpoint, keys } = request.body
      const refused = endpointFormRefusal(endpoint, opts.rules.allowLocal)
      if (refused) throw problems.pushEndpointRefused(refused)
      await admittedAddresses(new URL(endpoint).hostname.replace(/^\[|\]$/g, ''), opts.rules).catch(() => {
        throw problems.pushEndpointRefused(NOT_TRUSTED)
      })
      const order = await app.orderReader.read(request.upstreamContext(), uuid)
      storeUp()
      if ((await opts.store.save(uuid, { endpoint, keys }, opts.maxPerOrder)) === 'full')
        throw problems.tooManySubscriptions(opts.maxPerOrder)
      await app.orderWatch.follow(uuid)
      await opts.sink.pushEnded(order.body, subscriptionIdOf(endpoint))
      return reply.code(201).send({ orderId: uuid, status: order.body.status })
    },
  )

  routes.delete(
    '/v1/orders/:uuid/push-subscriptions',
    {
      schema: {
        params: orderParams,
        querystring: unsubscribeQuery,
        summary: "Stop pushing an order's events to a browser",
        description: 'Ends the subscription with this endpoint: `204` whether or not it was subscribed.',
        tags: ['push'],
        operationId: 'unsubscribeOrderPush',
      },
      config: {
        group: 'orders',
        invalidCodes: { uuid: 'INVALID_ORDER_ID' },
        answers: {
          success: { 204: { description: 'Not subscribed (any more).' } },
          problems: ['INVALID_ORDER_ID', 'VALIDATION_FAILED'],
        },
      },
    },
    async (request, reply) => {
      storeUp()
      await opts.store.remove(request.params.uuid, subscriptionIdOf(request.query.endpoint))
      return reply.code(204).send()
    },
  )
}
