-- beeuni-lsp for Neovim 0.11+: `vim.lsp.enable('beeuni')`.
-- Override any field with `vim.lsp.config('beeuni', { ... })`.
-- Self-contained, so it also works copied alone into a config's lsp/ folder
-- (then add `vim.filetype.add({ filename = { ['beeuni.yaml'] = 'yaml.beeuni' } })`).

--- The project root of a buffer whose file the server has something to say
--- about: a beeuni.yaml anywhere, or a YAML, TypeScript or JavaScript file
--- in a folder tree holding beeuni.yaml, unless it lies in a hidden folder
--- (.github/workflows) or node_modules below that root.
local function served_root(bufnr)
  local name = vim.api.nvim_buf_get_name(bufnr)
  if name == '' then
    return nil
  end
  local root = vim.fs.root(bufnr, 'beeuni.yaml')
  if not root or vim.fs.basename(name) == 'beeuni.yaml' then
    return root
  end
  local rel = name:sub(#root + 2)
  for part in vim.fs.dirname(rel):gmatch('[^/]+') do
    if part == 'node_modules' or (part:sub(1, 1) == '.' and part ~= '.') then
      return nil
    end
  end
  return root
end

--- The buffer-local commands (the nvim-lspconfig convention).
---@param client vim.lsp.Client
---@param bufnr integer
local function on_attach(client, bufnr)
  local ok, beeuni = pcall(require, 'beeuni')
  if ok then
    beeuni.buffer_commands(client, bufnr)
  end
end

---@type vim.lsp.Config
return {
  cmd = { 'beeuni-lsp', 'serve' },
  filetypes = { 'yaml.beeuni', 'yaml', 'typescript', 'javascript' },
  -- Attach only inside a folder tree holding beeuni.yaml: the nearest such
  -- folder is the project (a monorepo may hold several).
  root_dir = function(bufnr, on_dir)
    local root = served_root(bufnr)
    if root then
      on_dir(root)
    end
  end,
  on_attach = on_attach,
  init_options = { inspectModules = true },
  settings = { beeuni = { inspectModules = true } },
}
