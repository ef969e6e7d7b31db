-- Headless Neovim 0.7 as a real LSP client of the built Sanoma server (test/nvim/nvim.test.ts).
--
-- Reads its orders from the JSON file named by $SANOMA_NVIM_CONFIG: the node and server paths,
-- the company root, the file with a known problem, where to ask for a completion and a hover, a
-- file to write on disk while running, and where to write the results. Then, in order, each step
-- in its own pcall so that one failing step still lets the others report:
--   1. start the server with vim.lsp.start_client (0.7 has no vim.lsp.start) and wait until it
--      is initialized (client_is_stopped says true until initialize finishes, so it is no test);
--   2. open the problem file, buf_attach_client, wait for vim.diagnostic.get to show problems;
--   3. textDocument/completion inside a "data. string, with buf_request_sync;
--   4. textDocument/hover on a resource declaration;
--   5. write a new file on disk (no buffer: only the server's own watcher can see it, as 0.7 has
--      no didChangeWatchedFiles registration) and wait for its diagnostics.
-- The results go to the output file as JSON; exit 0 when every step passed, `cquit 1` when one
-- failed, `cquit 3` when the bound ran out (a Lua error in a callback would otherwise leave
-- headless Neovim running forever).

local out = { steps = {}, errors = {}, publishes = {} }
local cfg

local function write_out()
  if not cfg or not cfg.out then return end
  local f = io.open(cfg.out, "w")
  if f then
    f:write(vim.fn.json_encode(out))
    f:close()
  end
end

local finished = false
local function finish(code)
  if finished then return end
  finished = true
  pcall(write_out)
  if code == 0 then vim.cmd("qall!") else vim.cmd("cquit " .. code) end
end

local function step(name, fn)
  local ok, err = pcall(fn)
  out.steps[name] = ok
  if not ok then out.errors[name] = tostring(err) end
  pcall(write_out) -- what is known so far survives a hang in a later step
  return ok
end

-- Diagnostics in a form that encodes to JSON and that the test compares with the fixture's marks.
local function plain(diags)
  local list = {}
  for _, d in ipairs(diags) do
    table.insert(list, {
      lnum = d.lnum, col = d.col, end_lnum = d.end_lnum, end_col = d.end_col,
      severity = d.severity, message = d.message, source = d.source, code = d.code,
    })
  end
  return list
end

-- The buffer of a file, opened and attached to the client.
local function open_attached(file, client_id)
  vim.cmd("edit " .. vim.fn.fnameescape(file))
  local buf = vim.api.nvim_get_current_buf()
  vim.api.nvim_buf_set_option(buf, "filetype", "typescript")
  assert(vim.lsp.buf_attach_client(buf, client_id), "buf_attach_client failed for " .. file)
  return buf
end

-- A loaded or listed buffer whose name is exactly `file` (publishDiagnostics adds one per file).
local function buffer_of(file)
  for _, b in ipairs(vim.api.nvim_list_bufs()) do
    if vim.api.nvim_buf_get_name(b) == file then return b end
  end
  return nil
end

local function first_result(responses)
  for _, r in pairs(responses or {}) do
    if r.error then error("the server answered an error: " .. vim.inspect(r.error)) end
    if r.result ~= nil then return r.result end
  end
  return nil
end

local function main()
  local client_id
  step("start", function()
    client_id = vim.lsp.start_client({
      name = "sanoma",
      cmd = { cfg.node, cfg.server, "--stdio" },
      root_dir = cfg.root,
      handlers = {
        -- Record every publish (uri, count) before the default handler files them per buffer.
        ["textDocument/publishDiagnostics"] = function(err, result, ctx, config)
          if result then table.insert(out.publishes, { uri = result.uri, count = #result.diagnostics }) end
          return vim.lsp.diagnostic.on_publish_diagnostics(err, result, ctx, config)
        end,
      },
      on_exit = function(code, signal) out.server_exit = { code = code, signal = signal } end,
    })
    assert(client_id, "vim.lsp.start_client returned nil")
    local ok = vim.wait(cfg.waitMs, function()
      local c = vim.lsp.get_client_by_id(client_id)
      return c ~= nil and c.initialized == true
    end, 20)
    assert(ok, "the server never finished initialize")
    out.stopped_after_init = vim.lsp.client_is_stopped(client_id)
    local caps = vim.lsp.get_client_by_id(client_id).server_capabilities or {}
    out.capabilities = { completion = caps.completionProvider ~= nil, hover = caps.hoverProvider == true }
  end)
  if not out.steps.start then return end -- without a running server, nothing else can pass

  local problem_buf
  step("diagnostics", function()
    problem_buf = open_attached(cfg.problemFile, client_id)
    local ok = vim.wait(cfg.waitMs, function() return #vim.diagnostic.get(problem_buf) > 0 end, 50)
    out.diagnostics = plain(vim.diagnostic.get(problem_buf))
    assert(ok, "no diagnostics arrived for " .. cfg.problemFile)
  end)

  step("completion", function()
    local buf = buffer_of(cfg.completion.file) or open_attached(cfg.completion.file, client_id)
    local params = {
      textDocument = { uri = vim.uri_from_bufnr(buf) },
      position = { line = cfg.completion.line, character = cfg.completion.character },
    }
    local result = first_result(vim.lsp.buf_request_sync(buf, "textDocument/completion", params, cfg.requestMs))
    assert(result, "no answer to textDocument/completion")
    local items = result.items or result
    out.completion = {}
    for _, item in ipairs(items) do table.insert(out.completion, { label = item.label, detail = item.detail }) end
  end)

  step("hover", function()
    local buf = open_attached(cfg.hover.file, client_id)
    local params = {
      textDocument = { uri = vim.uri_from_bufnr(buf) },
      position = { line = cfg.hover.line, character = cfg.hover.character },
    }
    local result = first_result(vim.lsp.buf_request_sync(buf, "textDocument/hover", params, cfg.requestMs))
    assert(result, "no answer to textDocument/hover")
    local contents = result.contents
    out.hover = type(contents) == "table" and (contents.value or vim.fn.json_encode(contents)) or contents
  end)

  step("watcher", function()
    -- Written behind Neovim's back: no buffer, no didChangeWatchedFiles; the server must see it.
    vim.fn.writefile(vim.split(cfg.late.text, "\n", true), cfg.late.file)
    local ok = vim.wait(cfg.waitMs, function()
      local b = buffer_of(cfg.late.file)
      return b ~= nil and #vim.diagnostic.get(b) > 0
    end, 50)
    local b = buffer_of(cfg.late.file)
    out.late = b and plain(vim.diagnostic.get(b)) or {}
    assert(ok, "no diagnostics arrived for " .. cfg.late.file .. ", written on disk")
  end)
end

local function start()
  local ok, err = pcall(function()
    local path = os.getenv("SANOMA_NVIM_CONFIG")
    assert(path, "SANOMA_NVIM_CONFIG is not set")
    cfg = vim.fn.json_decode(table.concat(vim.fn.readfile(path), "\n"))
    -- The bound: whatever happens, Neovim exits.
    local timer = vim.loop.new_timer()
    timer:start(cfg.boundMs, 0, vim.schedule_wrap(function()
      out.errors.bound = "timed out after " .. cfg.boundMs .. " ms"
      finish(3)
    end))
    out.nvim = vim.version()
    main()
  end)
  if not ok then out.errors.init = tostring(err) end
  local failed = next(out.errors) ~= nil
  finish(failed and 1 or 0)
end

vim.api.nvim_create_autocmd("VimEnter", {
  once = true,
  callback = function()
    local ok, err = pcall(start)
    if not ok then
      out.errors.fatal = tostring(err)
      finish(1)
    end
  end,
})
