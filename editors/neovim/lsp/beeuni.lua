-- beeuni-lsp for Neovim 0.11+: `vim.lsp.enable('beeuni')`.
-- Override any field with `vim.lsp.config('beeuni', { ... })`.
-- Self-contained, so it also works copied alone into a config's lsp/ folder.
return {
  cmd = { 'beeuni-lsp', 'serve' },
  filetypes = { 'yaml', 'typescript', 'javascript' },
  -- Attach only inside a folder tree holding beeuni.yaml: the nearest such
  -- folder is the project (a monorepo may hold several).
  root_dir = function(bufnr, on_dir)
    local root = vim.fs.root(bufnr, 'beeuni.yaml')
    if root then
      on_dir(root)
    end
  end,
  init_options = { inspectModules = true },
  settings = { beeuni = { inspectModules = true } },
}
