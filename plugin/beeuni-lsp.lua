-- Plugin managers (lazy.nvim, vim.pack) load this repository's root: this
-- puts the Neovim plugin, which lives in editors/neovim, on the runtimepath,
-- with its help tags, filetype and commands, so that
-- `{ 'beeuni/beeuni-lsp' }` or `vim.pack.add({ 'https://github.com/beeuni/beeuni-lsp' })`
-- is the whole install.
local dir = vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':p:h:h') .. '/editors/neovim'
if vim.fn.isdirectory(dir) == 0 then
  return
end
local rtp = vim.opt.runtimepath:get()
if not vim.tbl_contains(rtp, dir) then
  vim.opt.runtimepath:append(dir)
end
-- lazy.nvim and vim.pack make help tags for the root's doc/ only.
local doc = dir .. '/doc'
local tags = doc .. '/tags'
if vim.fn.filewritable(doc) == 2 and vim.fn.getftime(tags) < vim.fn.getftime(doc .. '/beeuni.txt') then
  pcall(vim.cmd, 'silent helptags ' .. vim.fn.fnameescape(doc))
end
-- Loaded after startup's filetype detection and plugin scripts ran over
-- the runtimepath: run the plugin's own.
dofile(dir .. '/ftdetect/beeuni.lua')
dofile(dir .. '/plugin/beeuni.lua')
