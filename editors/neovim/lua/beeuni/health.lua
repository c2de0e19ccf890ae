-- :checkhealth beeuni — the binary is found, its version, the project root.
local M = {}

-- vim.health.* since 0.10 (0.9 has both); require('health').report_* before.
local function reporter()
  local h = vim.health
  if h and h.start then
    return { start = h.start, ok = h.ok, warn = h.warn, error = h.error, info = h.info }
  end
  h = require('health')
  return { start = h.report_start, ok = h.report_ok, warn = h.report_warn, error = h.report_error, info = h.report_info }
end

function M.check()
  local report = reporter()
  local beeuni = require('beeuni')
  report.start('beeuni-lsp')
  report.info('Neovim ' .. tostring(vim.version().major) .. '.' .. tostring(vim.version().minor) .. '.' .. tostring(vim.version().patch))

  local cmd = beeuni.options.cmd
  if vim.lsp.config and type(vim.lsp.config.beeuni) == 'table' and vim.lsp.config.beeuni.cmd then
    cmd = vim.lsp.config.beeuni.cmd
  end
  local exe = type(cmd) == 'table' and cmd[1] or nil
  if not exe then
    report.warn('the client command is not a list; cannot check the binary')
  elseif vim.fn.executable(exe) ~= 1 then
    report.error('binary not found: ' .. exe, {
      'go install github.com/beeuni/beeuni-lsp/cmd/beeuni-lsp@latest',
      'or :MasonInstall beeuni-lsp',
      'or set cmd = { "/path/to/beeuni-lsp", "serve" } in setup()',
    })
  else
    report.ok('binary found: ' .. vim.fn.exepath(exe))
    local out = vim.fn.system({ exe, 'version' })
    if vim.v.shell_error == 0 then
      report.ok('version: ' .. vim.trim(out))
    else
      report.error('`' .. exe .. ' version` failed: ' .. vim.trim(out))
    end
  end

  -- :checkhealth shows its report in a new buffer: the buffer it was run
  -- from is the alternate one.
  local bufnr = vim.fn.bufnr('#')
  if bufnr < 1 or vim.bo.buftype == '' and vim.api.nvim_buf_get_name(0) ~= '' then
    bufnr = vim.api.nvim_get_current_buf()
  end
  local file = vim.api.nvim_buf_get_name(bufnr)
  local root = beeuni.find_root(file ~= '' and file or vim.fn.getcwd())
  if root then
    report.ok('project root: ' .. root)
  else
    report.warn('no beeuni.yaml in ' .. (file ~= '' and file or vim.fn.getcwd()) .. ' or its parents: the client does not attach here')
  end

  local client = beeuni.client_for(bufnr)
  if client then
    local info = beeuni.server_info(client)
    local version = info and info.version or '?'
    report.ok('client running (id ' .. client.id .. ', server ' .. version .. ', root ' .. tostring(client.config.root_dir) .. ')')
  else
    report.info('no beeuni client running for this buffer')
  end
end

return M
