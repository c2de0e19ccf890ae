-- beeuni.yaml is YAML served by beeuni-lsp: the compound filetype
-- `yaml.beeuni` keeps the yaml syntax, indent and ftplugin, while YAML
-- servers configured for `yaml` (yaml-language-server's default
-- filetypes) leave the file alone.
if vim.fn.has('nvim-0.8') == 1 then
  vim.filetype.add({ filename = { ['beeuni.yaml'] = 'yaml.beeuni' } })
else
  -- 0.7 detects with filetype.vim, whose ftdetect scripts come last.
  vim.cmd([[
    augroup beeuni_ftdetect
      autocmd!
      autocmd BufNewFile,BufRead beeuni.yaml set filetype=yaml.beeuni
    augroup END
  ]])
end
