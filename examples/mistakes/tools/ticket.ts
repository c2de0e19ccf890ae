export default {
  description: 'Open a support ticket. Returns its id.',
  parameters: {
    type: 'object',
    properties: { title: { type: 'string', description: 'A one-line summary' } },
    required: ['title'],
  },
  async execute(args) {
    return `ticket opened: ${args.title}`
  },
}
