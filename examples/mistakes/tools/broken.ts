// T11: no default export, so the daemon skips this module.
export const tool = {
  description: 'Forgot `export default`.',
  parameters: { type: 'object', properties: {} },
  async execute() {
    return 'never called'
  },
}
