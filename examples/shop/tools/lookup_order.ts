// tools/lookup_order.ts: look up an order in the shop's orders API.
export default {
  description: 'Look up an order by id. Returns its status and carrier.',
  parameters: {
    type: 'object',
    properties: {
      id: { type: 'string', description: 'The order id, e.g. "A-1042"' },
      include_items: { type: 'boolean', description: 'Also list the items' },
    },
    required: ['id'],
  },
  async execute(args, context) {
    const key = context.env.ORDERS_API_KEY
    if (!key) throw new Error('ORDERS_API_KEY is not set: run `beeuni secrets set ORDERS_API_KEY=-` and grant it to this agent.')
    const url = `https://orders.example.com/v1/orders/${encodeURIComponent(args.id)}`
    const response = await fetch(url, {
      headers: { authorization: `Bearer ${key}` },
      signal: context.signal,
    })
    if (!response.ok) throw new Error(`orders API answered ${response.status}`)
    const order = await response.json()
    return {
      id: order.id,
      status: order.status,
      carrier: order.carrier,
      items: args.include_items ? order.items : undefined,
    }
  },
}
