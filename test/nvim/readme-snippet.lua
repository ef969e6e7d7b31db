-- Headless Neovim running the Neovim snippet of server/README.md as a user pastes it into their
-- config (test/nvim/readme-snippet.test.ts). Reads its orders from the JSON file named by
-- $SANOMA_NVIM_CONFIG: the snippet's file, the file to open, how long to wait, where to write what
-- happened. The snippet is for Neovim 0.8+ (`vim.lsp.start`); Debian's Neovim is 0.7, so where
-- `vim.lsp.start` is missing it is stood in for by what 0.8's does for this snippet (one client per
-- name and root, started with `start_client`, attached to the buffer). Everything else the snippet
-- calls is Neovim's own.

local cfg = vim.fn.json_decode(table.concat(vim.fn.readfile(os.getenv("SANOMA_NVIM_CONFIG")), "\n"))
local out = { notifications = {}, clients = {}, diagnostics = {}, errors = {} }

local function finish()
  local f = io.open(cfg.out, "w")
  f:write(vim.fn.json_encode(out))
  f:close()
  for _, client in pairs(vim.lsp.get_active_clients()) do client.stop(true) end
  vim.cmd("qall!")
end

local ok, err = pcall(function()
  if not vim.lsp.start then
    local started = {}
    vim.lsp.start = function(config)
      local key = config.name .. "\0" .. config.root_dir
      started[key] = started[key] or vim.lsp.start_client(config)
      vim.lsp.buf_attach_client(0, started[key])
      return started[key]
    end
  end
  local notify = vim.notify
  vim.notify = function(msg, level, opts)
    table.insert(out.notifications, { message = msg, level = level })
    return notify(msg, level, opts)
  end
  dofile(cfg.snippet)
  vim.cmd("filetype on")
  vim.cmd("edit " .. vim.fn.fnameescape(cfg.file))
  local buf = vim.api.nvim_get_current_buf()
  out.filetype = vim.bo[buf].filetype
  if cfg.expectDiagnostics then
    vim.wait(cfg.waitMs, function() return #vim.diagnostic.get(buf) > 0 end, 100)
  else
    vim.wait(cfg.quietMs, function() return false end, 100)
  end
  for _, client in pairs(vim.lsp.get_active_clients()) do
    table.insert(out.clients, { name = client.name, cmd = client.config.cmd, root_dir = client.config.root_dir })
  end
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    table.insert(out.diagnostics, { lnum = d.lnum, col = d.col, code = d.code, source = d.source })
  end
end)
if not ok then table.insert(out.errors, tostring(err)) end
finish()
