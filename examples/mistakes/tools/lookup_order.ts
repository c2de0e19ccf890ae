export default {
  description: 'Look up an order by id. Returns its status and carrier.',
  parameters: {
    type: 'object',
    properties: { id: { type: 'string', description: 'The order id, e.g. "A-1042"' } },
    required: ['id'],
  },
  async execute(args) {
    return `order ${args.id}: shipped`
  },
}
