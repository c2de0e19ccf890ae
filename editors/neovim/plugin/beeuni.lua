-- 0.7 to 0.10: defines the global :BeeuniEject and :BeeuniTools (0.11+
-- creates them per buffer when the client attaches); in every version the
-- global :BeeuniRename. Starting the client is
-- the user's choice: vim.lsp.enable('beeuni') (0.11+) or
-- require('beeuni').setup({...}).
if vim.g.loaded_beeuni then
  return
end
vim.g.loaded_beeuni = true
require('beeuni').create_commands()
require('beeuni').create_rename_command()
