export default {
  description: 'Fetch a page of the shop site as text.',
  parameters: {
    type: 'object',
    properties: { path: { type: 'string', description: 'The page path, e.g. "faq/returns"' } },
    required: ['path'],
  },
  async execute(args, context) {
    const response = await fetch(`https://shop.example.com/${args.path}`, { signal: context.signal })
    return await response.text()
  },
}
